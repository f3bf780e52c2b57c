"""How the picture tests look at what was written: pixels compared, GIFs read frame by frame."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops, ImageSequence


def same(a: Image.Image, b: Image.Image) -> bool:
    """Whether two pictures have the same size and the same RGB pixels."""
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def gif_frames(path: Path | str) -> tuple[list[Image.Image], list[int], int | None]:
    """A GIF's frames (RGB), each frame's duration in ms, and its loop count (None: plays once)."""
    with Image.open(path) as im:
        loop = im.info.get("loop")
        frames, durations = [], []
        for frame in ImageSequence.Iterator(im):
            durations.append(frame.info["duration"])
            frames.append(frame.convert("RGB"))
    return frames, durations, loop


def gif(path: Path | str) -> tuple[list[Image.Image], list[int]]:
    """A GIF's frames (RGB) and each frame's duration in ms."""
    frames, durations, _loop = gif_frames(path)
    return frames, durations
