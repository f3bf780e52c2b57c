"""A tidy top-down tree layout: root on top, each parent centred over its children.

Subtrees are packed left to right as closely as their contours allow (Reingold-Tilford
without threads: each subtree keeps its left and right extent per level), so a leaf may
sit in the gap under a shallow neighbour instead of claiming a column of its own.  This
keeps the wide, shallow trees of blind search much narrower than a layout with one column
per leaf.  Nodes may have different widths (a duplicate drawn as a small cross needs less
room than an expanded node).  Cost: O(nodes x depth).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def tidy_layout(
    graph: Any,
    size: Callable[[Any], float] | None = None,
    tree_gap: float = 2.0,
) -> dict[Any, tuple[float, float]]:
    """Positions ``{node: (x, -depth)}`` for a forest; children in node order.

    ``size(node)`` is a node's width (default 1): neighbours on a level may touch, so
    their centres are at least half their widths added apart.  The trees of a forest (the two sides of a
    bidirectional search) stand ``tree_gap`` apart, in node order.
    """
    half = {n: 0.5 for n in graph} if size is None else {n: size(n) / 2 for n in graph}
    kids = {n: sorted(graph.successors(n)) for n in graph}
    roots = sorted(n for n in graph if graph.in_degree(n) == 0)
    offset: dict[Any, float] = {}  # x of a node relative to its parent
    # per subtree and level, relative to its root: (left edge, right edge) of the extreme nodes
    contour: dict[Any, tuple[list[float], list[float]]] = {}

    for root in roots:
        for node in _postorder(root, kids):
            children = kids[node]
            w = half[node]
            if not children:
                contour[node] = ([-w], [w])
                continue
            left, right, shifts = _pack([contour.pop(c) for c in children], 0.0)
            mid = (shifts[0] + shifts[-1]) / 2
            for c, s in zip(children, shifts):
                offset[c] = s - mid
            contour[node] = ([-w] + [x - mid for x in left], [w] + [x - mid for x in right])

    pos: dict[Any, tuple[float, float]] = {}
    if not roots:
        return pos
    _left, _right, shifts = _pack([contour.pop(r) for r in roots], tree_gap)
    for root, x0 in zip(roots, shifts):
        stack = [(root, x0, 0)]
        while stack:
            node, x, depth = stack.pop()
            pos[node] = (x, -float(depth))
            for c in kids[node]:
                stack.append((c, x + offset[c], depth + 1))
    return pos


def _pack(contours: list[tuple[list[float], list[float]]], gap: float) -> tuple[list[float], list[float], list[float]]:
    """Place subtrees left to right, touching (plus ``gap``); return the joint contours
    and each one's shift."""
    left, right = list(contours[0][0]), list(contours[0][1])
    shifts = [0.0]
    for cl, cr in contours[1:]:
        common = min(len(right), len(cl))
        shift = max(right[i] - cl[i] for i in range(common)) + gap
        shifts.append(shift)
        for i in range(len(cr)):
            if i < len(right):
                right[i] = cr[i] + shift
            else:
                right.append(cr[i] + shift)
                left.append(cl[i] + shift)
    return left, right, shifts


def _postorder(root: Any, kids: dict) -> list:
    """Nodes below ``root`` with every child before its parent (no recursion limit)."""
    order, stack = [], [root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(kids[node])
    order.reverse()
    return order
