"""searchkit.render.animation: GIFs, PNG frames and single PNGs, written atomically."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from pictures import gif_frames, same
from PIL import Image, ImageChops, ImageDraw, ImageSequence

from searchkit import InputError
from searchkit.render import check_directory, check_file, save_frames, save_gif, save_png


def solid_frames(n: int, size=(40, 30)) -> list[Image.Image]:
    """``n`` frames of few colours, each visibly different (a moving square)."""
    frames = []
    for i in range(n):
        im = Image.new("RGB", size, (20 * i % 256, 100, 200))
        ImageDraw.Draw(im).rectangle((i * 3, 2, i * 3 + 8, 10), fill=(255, 255, 0))
        frames.append(im)
    return frames


def leftovers(directory) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.startswith(".")]


def test_gif_frames_durations_and_final_pause(tmp_path):
    frames = solid_frames(5)
    out = save_gif(frames, tmp_path / "a.gif", [500, 100, 100, 100, 100], final_pause_ms=1500)
    got, durations, loop = gif_frames(out)
    assert len(got) == 5
    assert durations == [500, 100, 100, 100, 1600]
    assert loop == 0
    assert all(same(a, b) for a, b in zip(got, frames))  # few colours: stored exactly
    assert leftovers(tmp_path) == []


def test_gif_from_a_generator_needs_the_durations(tmp_path):
    frames = solid_frames(4)
    save_gif((f for f in frames), tmp_path / "g.gif", [100] * 4, final_pause_ms=0)
    got, durations, _ = gif_frames(tmp_path / "g.gif")
    assert len(got) == 4 and durations == [100] * 4
    assert same(got[-1], frames[-1])


def test_gif_single_value_duration(tmp_path):
    save_gif(solid_frames(3), tmp_path / "s.gif", 200, final_pause_ms=300)
    assert gif_frames(tmp_path / "s.gif")[1] == [200, 200, 500]


def test_gif_frame_count_must_match_durations_and_leaves_no_file(tmp_path):
    target = tmp_path / "bad.gif"
    with pytest.raises(ValueError):
        save_gif(iter(solid_frames(3)), target, [100] * 4)
    with pytest.raises(ValueError):
        save_gif(iter(solid_frames(5)), target, [100] * 4)
    assert not target.exists() and leftovers(tmp_path) == []


def test_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "keep.gif"
    save_gif(solid_frames(2), target, 100)
    before = target.read_bytes()

    def broken():
        yield from solid_frames(2)
        raise RuntimeError("renderer failed")

    with pytest.raises(RuntimeError):
        save_gif(broken(), target, [100] * 3)
    assert target.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_photo_like_frames_share_one_palette(tmp_path):
    r = Image.linear_gradient("L").resize((96, 96))
    photo = Image.merge("RGB", (r, r.rotate(90), r.rotate(180)))  # thousands of colours
    frames = [photo, photo.transpose(Image.Transpose.FLIP_LEFT_RIGHT), photo]
    save_gif(frames, tmp_path / "p.gif", 100)
    got, _, _ = gif_frames(tmp_path / "p.gif")
    assert len(got) == 3
    for a, b in zip(got, frames):
        extrema = ImageChops.difference(a, b).getextrema()
        assert max(hi for _lo, hi in extrema) <= 48  # 256 median-cut colours, no dithering
    with Image.open(tmp_path / "p.gif") as im:
        colours = set()
        for frame in ImageSequence.Iterator(im):
            colours |= {c for _n, c in frame.convert("RGB").getcolors(1 << 16)}
    assert len(colours) <= 256  # one palette for the whole animation: no flicker


def test_frames_are_numbered_and_stale_ones_removed(tmp_path):
    d = tmp_path / "frames"
    written = save_frames(solid_frames(12), d)
    assert [p.name for p in written][:2] == ["frame_0000.png", "frame_0001.png"]
    assert len(written) == 12
    (d / "notes.txt").write_text("mine")
    written = save_frames((f for f in solid_frames(3)), d, count=3)
    names = sorted(p.name for p in d.iterdir())
    assert names == ["frame_0000.png", "frame_0001.png", "frame_0002.png", "notes.txt"]
    with Image.open(d / "frame_0002.png") as im:
        assert same(im, solid_frames(3)[2])


def test_frames_pad_to_the_count(tmp_path):
    # the digits follow the announced count, so 12000 frames would sort too
    written = save_frames(iter(solid_frames(2)), tmp_path / "wide", count=12000)
    assert [p.name for p in written] == ["frame_00000.png", "frame_00001.png"]


def test_frames_directory_checks(tmp_path):
    with pytest.raises(InputError, match="no directory"):
        save_frames(solid_frames(1), tmp_path / "missing" / "frames")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        save_frames(solid_frames(1), tmp_path / "file")
    assert check_directory(tmp_path / "new") == tmp_path / "new"
    assert not (tmp_path / "new").exists()  # checking makes nothing


def test_png_round_trip_and_bad_paths(tmp_path):
    im = solid_frames(1)[0]
    out = save_png(im, tmp_path / "one.png")
    with Image.open(out) as back:
        assert back.format == "PNG" and same(back, im)
    with pytest.raises(InputError, match="is a directory"):
        save_png(im, tmp_path)
    with pytest.raises(InputError, match="no directory"):
        save_png(im, tmp_path / "nope" / "x.png")
    with pytest.raises(InputError, match="no directory"):
        save_gif(solid_frames(2), tmp_path / "nope" / "x.gif")
    assert oct(os.stat(out).st_mode & 0o777) != oct(0o600)  # not mkstemp's private mode


def _refusals_in(locked: Path) -> list[str]:
    """The messages of the checks on a file and a directory inside ``locked``."""
    messages = []
    for check, target in ((check_file, locked / "a.gif"), (check_directory, locked / "frames")):
        try:
            check(target)
        except InputError as e:
            messages.append(str(e))
    return messages


def test_unwritable_directory():
    """A directory the user may not write into is refused.  Root may write anywhere, so as
    root (CI runs as root) the checks run in a forked child that has become ``nobody``."""
    base = Path(tempfile.mkdtemp())
    base.chmod(0o755)  # nobody must reach the locked directory
    locked = base / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        if os.geteuid() != 0:
            messages = _refusals_in(locked)
        else:
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: drop to nobody, run the checks, send the messages back
                os.close(read)
                os.setgid(65534)
                os.setuid(65534)
                os.write(write, "\n".join(_refusals_in(locked)).encode())
                os._exit(0)
            os.close(write)
            with os.fdopen(read) as pipe:
                messages = pipe.read().splitlines()
            assert os.waitpid(pid, 0)[1] == 0
        assert len(messages) == 2 and all("permission denied" in m for m in messages), messages
    finally:
        locked.chmod(0o700)
        shutil.rmtree(base)


def test_importing_searchkit_does_not_import_pillow():
    code = "import sys, searchkit, searchkit.render; print('PIL' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
