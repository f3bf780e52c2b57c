"""`save_tree`: one entry point that picks a picture or an export by the file's suffix."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..atomic import atomic_path
from ..errors import InputError

PICTURES = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
EXPORTS = (".graphml", ".gexf", ".dot", ".json")
SUFFIXES = tuple(PICTURES) + EXPORTS


def save_tree(
    graph: Any, path: Path | str, title: str = "", board_labels: Callable[[Any, Any], str] | None = None
) -> Path:
    """Draw or export ``graph`` to ``path`` by its suffix, atomically.

    ``board_labels(state, action) -> str`` draws small trees with multi-line node labels (a
    puzzle board; ``action`` is the one that led to the node, None at a root).  The file
    appears complete or not at all: it is written to a temporary file in the same directory
    and moved into place.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"cannot write a tree to {path.name!r}: use one of {', '.join(SUFFIXES)}")
    if title:
        graph.graph["title"] = title
    with atomic_path(path) as tmp:
        if suffix in PICTURES:
            from .draw import draw_tree

            draw_tree(graph, tmp, PICTURES[suffix], title, board_labels)
        else:
            from .export import WRITERS

            WRITERS[suffix](graph, tmp)
    return path
