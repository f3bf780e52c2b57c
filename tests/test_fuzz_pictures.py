"""Fuzzing pictures for the sliding picture puzzle (``--image``): random bytes, pictures of
every format Pillow writes truncated or with bytes flipped, headers claiming huge sizes
and decompression bombs.  A picture loads at the size asked for or is one ``Error:`` line;
the solve and play commands exit 0 or 2, and a refused run leaves its output files as
they were."""

from __future__ import annotations

import io
import random
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from fuzzing import (
    PROFILES,
    Profile,
    assert_clean,
    assert_no_partial_files,
    mutated_bytes,
    parses_or_refuses,
    run_cli,
    snapshot,
)
from hypothesis import strategies as st
from PIL import Image
from searchkit_npuzzle.picture import MAX_DECODE_PIXELS, load_picture
from searchkit_npuzzle.play_app import NPuzzleApp

FORMATS = ["PNG", "JPEG", "GIF", "BMP", "TIFF", "WEBP", "ICO", "PPM", "TGA"]
MODES = ["RGB", "RGBA", "L", "P", "LA", "1"]


def picture(fmt: str, mode: str, size: tuple[int, int], seed: int) -> bytes:
    """A small picture of noise in ``fmt`` (modes the format cannot store are converted)."""
    rng = random.Random(seed)
    im = Image.frombytes("RGB", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * 3)))
    im = im.convert(mode)
    if fmt in ("JPEG", "PPM") and mode not in ("RGB", "L"):
        im = im.convert("RGB")
    if fmt == "WEBP" and mode not in ("RGB", "RGBA"):
        im = im.convert("RGBA")
    out = io.BytesIO()
    try:
        im.save(out, format=fmt)
    except OSError:  # a mode this format cannot write (LA as BMP, ...)
        out = io.BytesIO()
        im.convert("RGB").save(out, format=fmt)
    return out.getvalue()


def png_header(width: int, height: int, idat: bytes = b"") -> bytes:
    """A PNG whose header claims ``width`` x ``height`` with (almost) no pixel data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(idat)) + chunk(b"IEND", b"")


PICTURES = st.builds(
    picture,
    st.sampled_from(FORMATS),
    st.sampled_from(MODES),
    st.tuples(st.integers(1, 40), st.integers(1, 40)),
    st.integers(0, 99),
)
IMAGE_BYTES = st.one_of(
    PICTURES,
    PICTURES.flatmap(mutated_bytes),
    PICTURES.flatmap(lambda b: st.integers(0, len(b)).map(lambda n: b[:n])),
    st.binary(max_size=300),
    st.tuples(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1)).map(lambda s: png_header(*s)),
)


def check_loaded(image: Any, size: tuple[int, int]) -> None:
    if image is not None:
        assert image.mode == "RGB" and image.size == size


@pytest.mark.parametrize("profile", PROFILES)
def test_pictures_load_or_are_refused(profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "picture.img"

    def check(case: tuple[bytes, tuple[int, int]]) -> None:
        data, size = case
        path.write_bytes(data)
        check_loaded(parses_or_refuses(lambda: load_picture(path, size)), size)

    sizes = st.sampled_from([(96, 96), (120, 80), (48, 144)])
    profile.run(st.tuples(IMAGE_BYTES, sizes), check, examples=200, deadline_s=10)


@pytest.mark.parametrize(
    "width,height",
    [(100_000, 100_000), (2**31 - 1, 1), (10_000, 6_000), (1, 2**31 - 1), (0, 0)],
)
def test_huge_headers_are_refused_without_decoding(width: int, height: int, tmp_path: Path) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(width, height))
    assert parses_or_refuses(lambda: load_picture(path, (96, 96))) is None


def test_a_decompression_bomb_under_a_lowered_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real picture over Pillow's MAX_IMAGE_PIXELS (lowered here) is an Error, not a crash."""
    path = tmp_path / "bomb.png"
    Image.new("RGB", (2000, 2000)).save(path)  # 4 M pixels in a few kB
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1_000_000)
    outcome = run_cli(
        "solve", "npuzzle", "--board", "1 2 3 4 5 6 7 0 8", "--image", str(path), "--png", str(tmp_path / "x.png")
    )
    assert_clean(outcome, (2,))
    assert "too large" in outcome.err
    assert MAX_DECODE_PIXELS < 2 * 89_478_485  # the decoder's own cap stays below Pillow's default refusal


def test_a_broken_tiff_is_one_line_without_pillow_warnings(tmp_path: Path) -> None:
    """Pillow warns ("Corrupt EXIF data") before it fails on this file: the user sees one line."""
    path = tmp_path / "broken.tif"
    path.write_bytes(picture("TIFF", "RGB", (8, 8), 1)[:8])
    outcome = run_cli(
        "solve", "npuzzle", "--board", "1 2 3 4 5 6 7 0 8", "--image", str(path), "--png", str(tmp_path / "x.png")
    )
    assert_clean(outcome, (2,))


@pytest.mark.parametrize("profile", PROFILES)
def test_solve_with_fuzzed_pictures_and_outputs(profile: Profile, tmp_path: Path) -> None:
    image = tmp_path / "in.img"
    names = st.sampled_from(["out.png", "out.gif", "out.PNG", "out.jpg", "out", ".png", "sub/out.png", "frames"])

    def check(case: tuple[bytes, str, str]) -> None:
        data, option, name = case
        image.write_bytes(data)
        target = tmp_path / name
        if target.suffix.lower() in (".png", ".gif") and target.parent.is_dir():
            target.write_bytes(b"previous")
        before = snapshot(tmp_path)
        outcome = run_cli(
            "solve", "npuzzle", "--board", "1 2 3 4 5 6 7 0 8", "--image", str(image), option, str(target), "--json"
        )
        assert_clean(outcome)
        if outcome.code == 2:
            assert_no_partial_files(tmp_path, before, set())
        else:
            written = {target.name} if target.parent == tmp_path else set()
            assert_no_partial_files(tmp_path, before, written)

    profile.run(
        st.tuples(IMAGE_BYTES, st.sampled_from(["--png", "--gif", "--frames"]), names),
        check,
        examples=30,
        deadline_s=10,
    )


@pytest.mark.parametrize("profile", PROFILES)
def test_play_with_fuzzed_pictures(profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEARCHKIT_PLAY_DIR", str(tmp_path / "autosaves"))
    monkeypatch.setattr(NPuzzleApp, "play", lambda self: None)
    image = tmp_path / "in.img"

    def check(data: bytes) -> None:
        image.write_bytes(data)
        assert_clean(run_cli("play", "npuzzle", "--new", "--image", str(image)))

    profile.run(IMAGE_BYTES, check, examples=30, deadline_s=10)
