"""The sliding picture puzzle: cutting, drawing, bad pictures, and GIF/PNG output via the CLI."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from pictures import gif, same
from PIL import Image, ImageChops, ImageDraw, ImageFile, ImageOps
from searchkit_npuzzle import picture
from searchkit_npuzzle.picture import (
    END_PAUSE_MS,
    MOVE_MS,
    START_MS,
    PictureBoard,
    default_picture,
    load_picture,
    tile_side,
)
from typer.testing import CliRunner

from searchkit import InputError
from searchkit.cli import build_app

runner = CliRunner()


def mean_diff(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    hist = diff.histogram()
    return sum(i * n for i, n in enumerate(hist)) / (diff.width * diff.height)


def blocks(size: tuple[int, int], cells: int = 6) -> Image.Image:
    """A test picture of at most 256 colours: coloured blocks over a grey ramp, so a GIF
    stores it exactly and every tile differs."""
    w, h = size
    ramp = (
        Image.linear_gradient("L").point(lambda v: v // 4 * 4).resize((w, h), Image.Resampling.NEAREST).convert("RGB")
    )
    d = ImageDraw.Draw(ramp)
    for i in range(cells):
        for j in range(cells):
            colour = (40 * i % 256, 40 * j % 256, (97 * (i + j)) % 256)
            x, y = i * w // cells, j * h // cells
            d.ellipse((x + 4, y + 4, x + w // cells // 2, y + h // cells // 2), fill=colour)
    assert ramp.getcolors(256) is not None
    return ramp


def solve(args: list[str]):
    return runner.invoke(build_app(), ["solve", "npuzzle", *args])


# -- the built-in picture and cutting ---------------------------------------------------------
def test_default_picture_is_deterministic_and_colourful():
    a, b = default_picture((240, 240)), default_picture((240, 240))
    assert a.size == (240, 240) and a.mode == "RGB"
    assert same(a, b)
    assert a.getcolors(1000) is None  # a real picture, not a few flat colours


@pytest.mark.parametrize("side", [3, 4, 8])
def test_default_tiles_are_distinguishable(side):
    t = tile_side(side, side)
    pic = default_picture((side * t, side * t))
    goal = tuple(range(1, side * side)) + (0,)
    board = PictureBoard(pic, side, side, goal)
    pieces = [board.pieces[k] for k in goal if k] + [board.hole]
    for i, a in enumerate(pieces):
        for b in pieces[i + 1 :]:
            assert mean_diff(a, b) > 3, "two tiles (or a tile and the blank) look alike"


def test_board_places_the_goal_cut_pieces():
    pic = blocks((240, 240))
    goal = tuple(range(1, 9)) + (0,)
    board = PictureBoard(pic, 3, 3, goal)
    start = (8, 1, 3, 4, 0, 2, 7, 6, 5)
    img = board.draw(start)
    t = 80
    inner = (4, 4, t - 4, t - 4)  # inside the bevel
    for p, tile in enumerate(start):
        r, c = divmod(p, 3)
        got = img.crop((c * t, r * t, c * t + t, r * t + t)).crop(inner)
        if tile == 0:
            assert got.getcolors(4) is not None and len(got.getcolors(4)) == 1  # an empty hole
            continue
        g = goal.index(tile)
        gr, gc = divmod(g, 3)
        assert same(got, pic.crop((gc * t, gr * t, gc * t + t, gr * t + t)).crop(inner))
    assert same(board.draw(goal), pic)  # solved: the whole picture, missing piece back in


def test_numbers_change_only_the_tiles_corner():
    pic = blocks((240, 240))
    goal = tuple(range(1, 9)) + (0,)
    plain, numbered = PictureBoard(pic, 3, 3, goal), PictureBoard(pic, 3, 3, goal, numbers=True)
    for tile in range(1, 9):
        a, b = plain.pieces[tile], numbered.pieces[tile]
        assert not same(a, b)
        assert same(a.crop((40, 40, 80, 80)), b.crop((40, 40, 80, 80)))  # the badge sits top-left
    assert not same(numbered.pieces[1].crop((0, 0, 30, 30)), numbered.pieces[7].crop((0, 0, 30, 30)))


def test_blank_follows_the_goal():
    pic = blocks((240, 240))
    goal = tuple(range(9))  # blank first (Korf)
    board = PictureBoard(pic, 3, 3, goal)
    assert 0 not in board.pieces and set(board.pieces) == set(range(1, 9))
    assert same(board.pieces[1].crop((4, 4, 76, 76)), pic.crop((84, 4, 156, 76)))  # tile 1 is cut from cell 1
    assert same(board.draw(goal), pic)


def test_picture_must_cut_into_square_tiles():
    with pytest.raises(ValueError):
        PictureBoard(blocks((241, 240)), 3, 3, tuple(range(9)))


# -- reading pictures -----------------------------------------------------------------------------
def test_load_crops_to_the_centre_square(tmp_path):
    src = blocks((640, 400))
    src.save(tmp_path / "wide.png")
    got = load_picture(tmp_path / "wide.png", (240, 240))
    assert same(got, ImageOps.fit(src, (240, 240), Image.Resampling.LANCZOS))


def test_load_respects_exif_orientation(tmp_path):
    stored = Image.new("RGB", (200, 100), (255, 0, 0))
    stored.paste((0, 0, 255), (100, 0, 200, 100))  # left red, right blue as stored
    exif = Image.Exif()
    exif[0x0112] = 6  # display rotated 90 degrees clockwise: left goes to the top
    for name in ("o.png", "o.jpg"):
        stored.save(tmp_path / name, exif=exif)
        got = load_picture(tmp_path / name, (64, 64))
        top, bottom = got.getpixel((32, 8)), got.getpixel((32, 56))
        assert top[0] > 200 and top[2] < 60, (name, top)
        assert bottom[2] > 200 and bottom[0] < 60, (name, bottom)


def test_transparent_pictures_sit_on_a_light_matte(tmp_path):
    im = Image.new("RGBA", (90, 90), (0, 0, 0, 0))
    im.save(tmp_path / "clear.png")
    assert load_picture(tmp_path / "clear.png", (30, 30)).getpixel((5, 5)) == picture.MATTE


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` pixels (with a tiny bogus body)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    "name,content,needle",
    [
        ("text.png", b"this is not a picture\n", "not a picture"),
        ("empty.png", b"", r"^image .* is an empty file$"),
        ("bomb.png", png_claiming(100_000, 100_000), r"^image .* too large to open safely"),
        ("big.png", png_claiming(8000, 8000), r"^image .* too large to decode: 8000 x 8000 pixels"),
        ("zero.png", png_claiming(0, 10), "not a picture"),
    ],
)
def test_bad_pictures_give_one_line_errors(tmp_path, name, content, needle):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(InputError, match=needle) as e:
        load_picture(tmp_path / name, (90, 90))
    assert "\n" not in str(e.value)


def test_truncated_missing_and_directory(tmp_path):
    blocks((300, 300)).save(tmp_path / "full.png")
    data = (tmp_path / "full.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(data[: len(data) // 2])
    (tmp_path / "cut.jpg").write_bytes(b"\xff\xd8\xff\xe0" + b"\0" * 40)
    for name, needle in (
        ("cut.png", "cannot read image"),
        ("cut.jpg", "image"),
        ("missing.png", "not found"),
        (".", "directory"),
    ):
        with pytest.raises(InputError, match=needle) as e:
            load_picture(tmp_path / name, (90, 90))
        assert "\n" not in str(e.value)


def test_large_jpeg_is_decoded_at_reduced_scale(tmp_path, monkeypatch):
    big = Image.new("L", (4000, 3000), 90)
    ImageDraw.Draw(big).ellipse((500, 500, 3500, 2500), fill=200)
    big.save(tmp_path / "big.jpg", quality=60)
    decoded = []
    real_load = ImageFile.ImageFile.load

    def spy(self):
        if self.format == "JPEG" and self.tile:  # about to decode: at which size?
            decoded.append(self.size)
        return real_load(self)

    monkeypatch.setattr(ImageFile.ImageFile, "load", spy)
    monkeypatch.setattr(picture, "MAX_DECODE_PIXELS", 1_000_000)  # 12 Mpx is fine as a JPEG...
    got = load_picture(tmp_path / "big.jpg", (240, 240))
    assert got.size == (240, 240)
    assert decoded and max(w * h for w, h in decoded) <= 500 * 375  # 1/8 scale, never 4000x3000
    Image.new("L", (1200, 1000)).save(tmp_path / "big.png")  # ...but a PNG is decoded whole
    with pytest.raises(InputError, match="too large to decode"):
        load_picture(tmp_path / "big.png", (240, 240))


def test_large_jpeg_keeps_memory_low(tmp_path):
    big = Image.new("L", (6000, 6000), 60)
    ImageDraw.Draw(big).rectangle((1000, 1000, 5000, 5000), fill=220)
    big.save(tmp_path / "huge.jpg", quality=50)
    del big
    code = f"""
import resource
from searchkit_npuzzle.picture import load_picture
load_picture({str(tmp_path / "small.png")!r}, (240, 240))  # warm up imports and allocator
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
load_picture({str(tmp_path / "huge.jpg")!r}, (480, 480))
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""
    blocks((240, 240)).save(tmp_path / "small.png")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(out) < 20, f"peak memory grew by {out.strip()} MB (a full decode needs 36+ MB)"


# -- the CLI --------------------------------------------------------------------------------------
BOARD = "1 2 3 4 5 6 0 7 8"  # two moves: R R


def test_cli_writes_gif_frames_and_png(tmp_path):
    src = blocks((480, 480))  # exactly the board's picture size: the solved frame is the file itself
    src.save(tmp_path / "src.png")
    board = "8 1 3 4 0 2 7 6 5"
    res = solve(
        [
            "--board",
            board,
            "--image",
            str(tmp_path / "src.png"),
            "--gif",
            str(tmp_path / "a.gif"),
            "--frames",
            str(tmp_path / "frames"),
            "--png",
            str(tmp_path / "start.png"),
            "--json",
        ]
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    moves = doc["length"]
    frames, durations = gif(tmp_path / "a.gif")
    assert len(frames) == moves + 1
    assert durations == [START_MS] + [MOVE_MS] * (moves - 1) + [MOVE_MS + END_PAUSE_MS]
    assert same(frames[-1], src)  # pixel for pixel, through the GIF
    pngs = sorted((tmp_path / "frames").iterdir())
    assert len(pngs) == moves + 1
    with Image.open(pngs[-1]) as last, Image.open(pngs[0]) as first, Image.open(tmp_path / "start.png") as start:
        assert same(last, src)
        assert same(first, start) and same(first, frames[0])
    for a, b in zip(frames, frames[1:]):
        assert not same(a, b)  # every move shows
    assert "animation:" in res.stderr and "frames:" in res.stderr and "picture:" in res.stderr


def test_cli_default_picture_with_numbers(tmp_path):
    res = solve(
        [
            "--board",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
            "--numbers",
            "--frames",
            str(tmp_path / "f"),
            "--gif",
            str(tmp_path / "n.gif"),
        ]
    )
    assert res.exit_code == 0, res.output
    frames, _ = gif(tmp_path / "n.gif")
    assert len(frames) == 2
    with Image.open(tmp_path / "f" / "frame_0001.png") as last:
        assert same(last, default_picture((480, 480)))  # solved: the clean picture, no numbers
    assert mean_diff(frames[-1], default_picture((480, 480))) < 4  # a GIF keeps 256 colours of it


def test_cli_rectangle_and_blank_first(tmp_path):
    res = solve(["--size", "3x2", "--board", "1 2 0 3 4 5", "--goal", "blank-first", "--frames", str(tmp_path / "f")])
    assert res.exit_code == 0, res.output
    pngs = sorted((tmp_path / "f").iterdir())
    with Image.open(pngs[0]) as first, Image.open(pngs[-1]) as last:
        assert first.size == last.size == (3 * 160, 2 * 160)
        assert same(last, default_picture((480, 320)))
        hole = first.crop((2 * 160 + 10, 10, 3 * 160 - 10, 150))  # the blank starts in cell 2
        assert len(hole.getcolors(4) or []) == 1


def test_cli_already_solved_board_is_one_frame(tmp_path):
    res = solve(["--board", "1 2 3 4 5 6 7 8 0", "--gif", str(tmp_path / "z.gif")])
    assert res.exit_code == 0, res.output
    frames, durations = gif(tmp_path / "z.gif")
    assert len(frames) == 1 and durations == [START_MS + END_PAUSE_MS]


BAD_RUNS = [
    (
        lambda d: (d / "x.png").write_text("not a picture"),
        ["--image", "{d}/x.png", "--gif", "{d}/a.gif"],
        "not a picture",
    ),
    (lambda d: (d / "e.png").write_bytes(b""), ["--image", "{d}/e.png", "--png", "{d}/a.png"], "empty"),
    (lambda d: None, ["--image", "{d}/none.png", "--gif", "{d}/a.gif"], "not found"),
    (lambda d: None, ["--gif", "{d}/no/such/dir/a.gif"], "no directory"),
    (lambda d: None, ["--frames", "{d}/no/such"], "no directory"),
    (lambda d: None, ["--png", "{d}"], "is a directory"),
    (lambda d: None, ["--numbers"], "add --gif"),
]


@pytest.mark.parametrize("setup,args,needle", BAD_RUNS)
def test_cli_bad_pictures_fail_before_searching(tmp_path, setup, args, needle):
    setup(tmp_path)
    res = solve(["--board", BOARD, *[a.format(d=tmp_path) for a in args]])
    # the app raises InputError; the installed script's main() turns it into exit 2 (below)
    assert isinstance(res.exception, InputError), res.output
    assert needle in str(res.exception) and "\n" not in str(res.exception)
    assert res.stdout == ""  # no search ran, nothing was printed
    assert not (tmp_path / "a.gif").exists() and not (tmp_path / "a.png").exists()


def test_installed_script_reports_a_bad_picture_in_one_line(tmp_path):
    blocks((300, 300)).save(tmp_path / "full.png")
    data = (tmp_path / "full.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(data[: len(data) // 2])
    exe = shutil.which("searchkit") or str(Path(sys.executable).with_name("searchkit"))
    p = subprocess.run(
        [
            exe,
            "solve",
            "npuzzle",
            "--board",
            BOARD,
            "--image",
            str(tmp_path / "cut.png"),
            "--gif",
            str(tmp_path / "a.gif"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot read image"), p.stderr
    assert p.stdout == "" and not (tmp_path / "a.gif").exists()
