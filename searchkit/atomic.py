"""Atomic file writes: a temporary file beside the target, renamed over it when complete.

A crash, a full disk or Ctrl-C mid-write leaves the old file (or none) - never half of
a new one.  Everything searchkit saves (pictures, trees, caches, results, games) goes
through here.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import InputError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(path: str | os.PathLike[str], mode: int | None = None) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``path``.

    The file gets ``mode`` (default: what a plain ``open`` would give under the umask)
    rather than ``mkstemp``'s private 0600.  A missing directory is an `InputError`.
    """
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"cannot write {path}: directory {parent} does not exist")
    try:
        # keep the suffix: libraries that pick a format by file name still see it
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=parent)
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    try:
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_atomic(path: str | os.PathLike[str], data: bytes | str, mode: int | None = None) -> Path:
    """Write ``data`` (text is UTF-8) to ``path`` atomically and durably."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path, mode) as tmp:
        with open(tmp, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
    return Path(path)
