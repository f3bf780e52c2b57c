"""One colour scheme for pictures and exports: nodes coloured by f (or depth)."""

from __future__ import annotations

import math
from typing import Any

CMAP = "viridis"
MUTED = (0.72, 0.72, 0.72)  # duplicates: not part of the search proper
DEAD = (0.25, 0.25, 0.25)  # an infinite f: a dead end the heuristic recognised


def color_key(graph: Any) -> str:
    """``"f"`` when f tells the nodes apart, else ``"depth"`` (blind engines report f = 0)."""
    seen = set()
    for _n, data in graph.nodes(data=True):
        if data.get("status") != "duplicate":
            seen.add(data.get("f", 0.0))
            if len(seen) > 1:
                return "f"
    return "depth"


def value_range(graph: Any, key: str) -> tuple[float, float]:
    """Finite min and max of ``key`` over the nodes that get a colour (never empty)."""
    vals = [
        float(d.get(key, 0))
        for _n, d in graph.nodes(data=True)
        if d.get("status") != "duplicate" and math.isfinite(float(d.get(key, 0)))
    ]
    if not vals:
        return 0.0, 1.0
    lo, hi = min(vals), max(vals)
    return (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)


def node_colors(graph: Any, key: str | None = None) -> dict[Any, tuple[float, float, float]]:
    """RGB in 0..1 per node."""
    from matplotlib import colormaps

    key = key or color_key(graph)
    cmap = colormaps[CMAP]
    lo, hi = value_range(graph, key)
    out = {}
    for n, d in graph.nodes(data=True):
        v = float(d.get(key, 0))
        if d.get("status") == "duplicate":
            out[n] = MUTED
        elif not math.isfinite(v):
            out[n] = DEAD
        else:
            r, g, b = cmap((v - lo) / (hi - lo))[:3]
            out[n] = (r, g, b)
    return out


def node_rgb(graph: Any) -> dict[Any, tuple[int, int, int]]:
    """RGB in 0..255 per node, for file formats."""
    return {
        n: (int(round(255 * r)), int(round(255 * g)), int(round(255 * b)))
        for n, (r, g, b) in node_colors(graph).items()
    }
