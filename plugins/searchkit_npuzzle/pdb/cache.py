"""Pattern-database files on disk: where they live, their header, checksum and atomic write.

A file is ``SEARCHKIT-PDB 1\\n``, an 8-byte little-endian header length, a JSON header
(board size, partition name and groups, goal, table sizes, SHA-256 of the payload) and the
payload: the groups' tables, one byte per entry, back to back.  It is written to a temporary
file in the same directory and renamed into place, so a crash never leaves half a file
under the real name.  `read` refuses anything that is not exactly what was asked for.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from pathlib import Path
from typing import Any

import numpy as np

from searchkit import InputError, atomic_path

MAGIC = b"SEARCHKIT-PDB 1\n"
ENV_VAR = "SEARCHKIT_CACHE_DIR"
FORMAT_VERSION = 1


class CacheError(ValueError):
    """A cache file that cannot be used (corrupt, truncated or built for something else)."""


def cache_dir(override: str | os.PathLike | None = None) -> Path:
    """Directory of the pattern-database files: ``override`` (``--cache-dir``), else
    ``$SEARCHKIT_CACHE_DIR``, else the user's cache directory (``$XDG_CACHE_HOME/searchkit/pdb``
    on Linux).  It may not exist yet; InputError when something other than a directory is there."""
    env = os.environ.get(ENV_VAR)
    if override:
        path, given = Path(override).expanduser(), "--cache-dir"
    elif env:
        path, given = Path(env).expanduser(), f"${ENV_VAR}"
    else:
        try:
            from platformdirs import user_cache_dir

            base = Path(user_cache_dir("searchkit", appauthor=False))
        except ImportError:  # platformdirs is a dependency, but keep working without it
            base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "searchkit"
        path, given = base / "pdb", "the user cache directory"
    if path.exists() and not path.is_dir():
        raise InputError(f"the pattern-database cache directory {path} ({given}) is not a directory")
    return path


def file_name(
    partition: str, width: int, height: int, goal: tuple[int, ...], groups: tuple[tuple[int, ...], ...]
) -> str:
    """A name that differs whenever the contents would: size, goal and groups are hashed in."""
    digest = hashlib.sha256(json.dumps([width, height, list(goal), [list(g) for g in groups]]).encode()).hexdigest()
    return f"{partition}-{width}x{height}-{digest[:12]}.pdb"


def expected_header(
    partition: str,
    width: int,
    height: int,
    goal: tuple[int, ...],
    groups: tuple[tuple[int, ...], ...],
    sizes: list[int],
) -> dict[str, Any]:
    return {
        "format": "searchkit-pdb",
        "version": FORMAT_VERSION,
        "partition": partition,
        "width": width,
        "height": height,
        "goal": list(goal),
        "groups": [list(g) for g in groups],
        "sizes": sizes,
        "dtype": "uint8",
    }


def write(path: Path, header: dict[str, Any], tables: list[np.ndarray]) -> None:
    """Write the tables under ``header`` atomically (temporary file + rename)."""
    payload = [np.ascontiguousarray(t, dtype=np.uint8) for t in tables]
    sha = hashlib.sha256()
    for t in payload:
        sha.update(t.data)
    head = json.dumps(dict(header, sha256=sha.hexdigest()), sort_keys=True).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path, mode=0o644) as tmp, open(tmp, "wb") as f:
        f.write(MAGIC)
        f.write(struct.pack("<Q", len(head)))
        f.write(head)
        for t in payload:
            f.write(t.data)
        f.flush()
        os.fsync(f.fileno())


def read_header(data: bytes | memoryview) -> tuple[dict[str, Any], int]:
    """The header and the payload's offset; CacheError when the file is not a pdb file."""
    if bytes(data[: len(MAGIC)]) != MAGIC:
        raise CacheError("not a searchkit pattern-database file (bad magic)")
    start = len(MAGIC) + 8
    if len(data) < start:
        raise CacheError("truncated header")
    (length,) = struct.unpack("<Q", bytes(data[len(MAGIC) : start]))
    if length > 1 << 20 or len(data) < start + length:
        raise CacheError("truncated header")
    try:
        header = json.loads(bytes(data[start : start + length]))
    except (ValueError, RecursionError):
        raise CacheError("unreadable header") from None
    if not isinstance(header, dict):
        raise CacheError("unreadable header")
    return header, start + length


def read(path: Path, expect: dict[str, Any]) -> list[np.ndarray]:
    """The tables of ``path``; CacheError when it is corrupt, truncated or not ``expect``.

    The payload is read straight into one writable numpy buffer (no copy of a 577 MB
    file through a bytes object; and writable tables have the same numba type as the
    ones built in memory, so the compiled search loaded once serves both)."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC) + 8 + (1 << 20))  # the longest header read_header accepts
            header, offset = read_header(head)
            size = os.fstat(f.fileno()).st_size
            for key, value in expect.items():
                if header.get(key) != value:
                    raise CacheError(f"built for a different {key} ({header.get(key)!r}, expected {value!r})")
            sizes = header["sizes"]
            if size - offset != sum(sizes):
                raise CacheError(f"truncated or padded payload ({size - offset} bytes, expected {sum(sizes)})")
            flat = np.empty(sum(sizes), dtype=np.uint8)
            f.seek(offset)
            if f.readinto(flat.data) != len(flat):
                raise CacheError("truncated payload")
    except OSError as e:
        raise CacheError(f"cannot read: {e.strerror or e}") from None
    if hashlib.sha256(flat.data).hexdigest() != header.get("sha256"):
        raise CacheError("checksum mismatch")
    tables, at = [], 0
    for size in sizes:
        tables.append(flat[at : at + size])
        at += size
    return tables
