"""Write pictures of a solution: an animated GIF, numbered PNG frames or one PNG.

Domain-agnostic: callers hand over PIL images (any mode Pillow can save).  Every file is
written to a temporary file in its own directory and moved into place with
``os.replace``, so a reader never sees half a picture and a failed run leaves the old file.
Bad destinations (missing directory, a directory where a file should go, no permission)
raise `InputError`; ``check_file``/``check_directory`` let a command refuse them before a
long search rather than after it.  Pillow is imported only when a picture is written.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from PIL.Image import Image

FRAME_PREFIX = "frame_"
_FRAME_NAME = re.compile(r"frame_(\d+)\.png")


def check_file(path: Path | str, what: str = "file", suffixes: tuple[str, ...] = ()) -> Path:
    """``path`` as a Path, or an InputError if a file cannot be written there (or, with
    ``suffixes``, if its name does not end in one of them: GIF bytes in ``x.png`` mislead)."""
    path = Path(path)
    if str(path) in ("", "."):
        raise InputError(f"the {what} path is empty")
    if path.is_dir():
        raise InputError(f"cannot write the {what} {path}: it is a directory")
    if suffixes and path.suffix.lower() not in suffixes:
        raise InputError(f"the {what} file name must end in {' or '.join(suffixes)} (got {path.name!r})")
    parent = path.parent
    if not parent.is_dir():
        raise InputError(f"cannot write the {what} {path}: no directory {parent}")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(f"cannot write the {what} {path}: permission denied")
    return path


def check_directory(path: Path | str, what: str = "frames directory") -> Path:
    """``path`` as a Path if it is (or can be made as) a writable directory.

    Only the last component may be missing: a typo in a parent is an error, not a tree of
    new directories.
    """
    path = Path(path)
    if str(path) == "":
        raise InputError(f"the {what} path is empty")
    if path.exists():
        if not path.is_dir():
            raise InputError(f"the {what} {path} is not a directory")
        if not os.access(path, os.W_OK | os.X_OK):
            raise InputError(f"cannot write into the {what} {path}: permission denied")
        return path
    parent = path.parent
    if not parent.is_dir():
        raise InputError(f"cannot make the {what} {path}: no directory {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"cannot make the {what} {path}: permission denied")
    return path


def save_png(image: Image, path: Path | str) -> Path:
    """Write one picture as PNG (whatever the suffix says)."""
    path = check_file(path, "picture")
    _atomic_write(path, lambda tmp: image.save(tmp, format="PNG"))
    return path


def save_frames(
    frames: Iterable[Image],
    directory: Path | str,
    count: int | None = None,
    prefix: str = FRAME_PREFIX,
    compress_level: int = 3,
) -> list[Path]:
    """Write ``frame_0000.png``, ``frame_0001.png``, ... into ``directory`` (made if missing).

    ``frames`` may be a generator (one frame in memory at a time) when ``count`` says how
    many it yields.  Numbers are zero-padded to at least 4 digits so the files sort in play
    order.  Frames of the default pattern left over from an earlier, longer run are
    removed, so the directory holds exactly this animation.  ``compress_level`` 3 writes a
    frame about twice as fast as zlib's default and barely bigger.
    """
    directory = check_directory(directory)
    if count is None:
        frames = list(frames)
        count = len(frames)
    try:
        directory.mkdir(exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot make the frames directory {directory}: {e.strerror or e}") from None
    digits = max(4, len(str(max(count - 1, 0))))
    written = []
    for i, frame in enumerate(frames):
        path = directory / f"{prefix}{i:0{digits}d}.png"
        _atomic_write(path, lambda tmp, frame=frame: frame.save(tmp, format="PNG", compress_level=compress_level))  # type: ignore[misc]
        written.append(path)
    if not written:
        raise ValueError("no frames to write")
    if prefix == FRAME_PREFIX:
        keep = {p.name for p in written}
        for old in directory.iterdir():
            if _FRAME_NAME.fullmatch(old.name) and old.name not in keep and old.is_file():
                old.unlink()
    return written


def save_gif(
    frames: Iterable[Image],
    path: Path | str,
    duration_ms: int | Sequence[int] = 250,
    final_pause_ms: int = 1500,
    loop: int = 0,
) -> Path:
    """Write an animated GIF: frame ``i`` shows for ``duration_ms[i]`` (or one value for
    all), the last one ``final_pause_ms`` longer; ``loop=0`` repeats forever.

    ``frames`` may be a generator when ``duration_ms`` is a list (its length is the frame
    count): frames are then made and reduced to a palette one at a time.  A frame with
    at most 256 colours is stored exactly; richer frames (photos) share one median-cut
    palette, without dithering, so they do not flicker.  Pillow merges a frame
    identical to the one before it into that frame (adding the durations).
    """
    path = check_file(path, "GIF")
    if isinstance(duration_ms, int):
        frames = list(frames)
        durations = [duration_ms] * len(frames)
    else:
        durations = list(duration_ms)
    if not durations:
        raise ValueError("no frames to write")
    durations[-1] += final_pause_ms
    # GIF delays are in hundredths of a second; many viewers treat < 20 ms as 100 ms
    durations = [max(20, int(d)) for d in durations]
    to_palette = _Palettes()
    palette_frames = (to_palette(f) for f in frames)

    def write(tmp: str) -> None:
        first = next(palette_frames, None)
        if first is None:
            raise ValueError("no frames to write")
        first.save(
            tmp,
            format="GIF",
            save_all=True,
            append_images=_exactly(palette_frames, len(durations) - 1),
            duration=durations,
            loop=loop,
            disposal=1,
        )

    _atomic_write(path, write)
    return path


def _exactly(frames: Iterator[Image], n: int) -> Iterator[Image]:
    """The next ``n`` frames, or a ValueError when their number differs from ``n``."""
    count = 0
    for frame in frames:
        count += 1
        if count > n:
            raise ValueError(f"more frames than the {n + 1} durations")
        yield frame
    if count != n:
        raise ValueError(f"{count + 1} frames for {n + 1} durations")


class _Palettes:
    """Frames to palette images: exact for a frame of at most 256 colours, otherwise mapped
    to one shared median-cut palette made from the first such frame (fast, and no
    colour flicker between frames of the same photo)."""

    def __init__(self) -> None:
        self.shared: Image | None = None

    def __call__(self, frame: Image) -> Image:
        from PIL.Image import Dither, Quantize

        if frame.mode == "P":
            return frame
        if frame.mode != "RGB":
            frame = frame.convert("RGB")  # an alpha channel is dropped: GIF has no partial transparency
        if frame.getcolors(256) is not None:
            return frame.quantize(256, method=Quantize.MEDIANCUT, dither=Dither.NONE)
        if self.shared is None:
            self.shared = frame.quantize(256, method=Quantize.MEDIANCUT, dither=Dither.NONE)
        return frame.quantize(palette=self.shared, dither=Dither.NONE)


def _atomic_write(path: Path, write: Callable[[str], None]) -> None:
    """Run ``write(tmp)`` on a temporary file next to ``path``, then move it into place."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=path.suffix or ".tmp", dir=path.parent)
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would otherwise stick to the file
        write(tmp)
        os.replace(tmp, path)
    except OSError as e:
        _discard(tmp)
        raise InputError(f"cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        _discard(tmp)
        raise


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
