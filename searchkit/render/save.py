"""`save_tree`: one entry point that picks a picture or an export by the file's suffix."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable

from ..errors import InputError

PICTURES = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
EXPORTS = (".graphml", ".gexf", ".dot", ".json")
SUFFIXES = tuple(PICTURES) + EXPORTS


def save_tree(graph: Any, path: Path | str, title: str = "",
              board_labels: Callable[[Any], str] | None = None) -> Path:
    """Draw or export ``graph`` to ``path`` by its suffix, atomically.

    ``board_labels(state) -> str`` draws small trees with multi-line node labels (a
    puzzle board).  The file appears complete or not at all: it is written to a temporary
    file in the same directory and moved into place.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"cannot write a tree to {path.name!r}: use one of {', '.join(SUFFIXES)}")
    parent = path.parent
    if not parent.is_dir():
        raise InputError(f"cannot write {path}: no directory {parent}")
    if title:
        graph.graph["title"] = title
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=suffix, dir=parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would otherwise stick to the file
    try:
        if suffix in PICTURES:
            from .draw import draw_tree

            draw_tree(graph, tmp, PICTURES[suffix], title, board_labels)
        else:
            from .export import WRITERS

            WRITERS[suffix](graph, tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
