"""Drawing a recorded search tree with matplotlib (Agg, no pyplot, no display needed).

The figure is sized from the tidy layout so that one layout unit is wide enough for what
each node shows, which is how labels never overlap: the layout keeps nodes on a level at
least one unit apart, and a node's label is never wider than a unit.  What a node shows
depends on how many there are:

* ``board``  - a small tree with ``board_labels``: the board, g and h, the expansion order;
* ``text``   - a small tree with short state labels: the label and the expansion order;
* ``order``  - up to a few hundred nodes: a disc with the expansion order in it;
* ``dots``   - anything bigger: a marker per node, sized to the room it has.

Colour is f = g + h (depth for blind engines, whose f is constant); the shape tells an
expanded node from one only generated, a duplicate or a pruned child; the solution path
is red.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from os import PathLike
from typing import Any

from .colors import CMAP, MUTED, color_key, node_colors, value_range
from .layout import tidy_layout

FONT = 7.0  # points, labels
CHAR_W = 0.61 * FONT / 72  # inches per monospace character
LINE_H = 1.22 * FONT / 72  # inches per text line
BOX_PAD = 0.6  # label box padding, in font sizes
ORDER_H = 0.03 + 1.2 * (FONT - 1) / 72  # inches the "#order" label takes above a box
ACTION_FONT = FONT - 1.5
MAX_AX_W = 40.0  # inches: the widest tree area with labels
MAX_DOTS_W = 56.0  # inches: the widest tree area of dots
MAX_AX_H = 30.0
MAX_ASPECT = 3.5  # wide trees get taller levels, up to this width : height
MAX_PIXELS = 7000  # per side of a PNG
MAX_AREA = 16e6  # pixels of a PNG
PATH_RED = "#d62728"

MARKERS = {"expanded": "o", "generated": "s", "pruned": "v", "duplicate": "x"}


def draw_tree(
    graph: Any,
    path: str | PathLike[str],
    fmt: str,
    title: str = "",
    board_labels: Callable[[Any, Any], str] | None = None,
) -> None:
    """Render ``graph`` (from `TreeRecorder.finish`) to ``path`` in ``fmt`` (png/svg/pdf);
    ``board_labels(state, action)`` is a node's board, ``action`` the one that led to it
    (None at a root).

    Labels are drawn literally: a state's text may hold ``$`` (a Sokoban box), which
    matplotlib would otherwise read as the start of a formula."""
    import matplotlib

    with matplotlib.rc_context({"text.parse_math": False}):
        _draw_tree(graph, path, fmt, title, board_labels)


def _draw_tree(graph: Any, path: str | PathLike[str], fmt: str, title: str, board_labels) -> None:
    from matplotlib.figure import Figure

    mode, texts, unit, level_h, (pos, x0, x1, depth) = _choose_mode(graph, board_labels)
    span, levels = x1 - x0 + 1.0, depth + 1.0
    ax_w, ax_h = span * unit, levels * level_h
    # a big picture is looked at shrunk to a screen: scale the furniture with it
    k = min(3.5, max(1.0, (ax_w + 1.5) / 16))
    heading = _heading(graph, title)
    top, bottom, right = (0.3 + 0.22 * len(heading)) * k, 0.55 * k, 1.2 * k
    fig_w = max(ax_w + 0.3 + right, 7.5)
    fig_h = max(ax_h + top + bottom, 3.4)
    left = min((fig_w - ax_w) / 2, fig_w - ax_w - right)  # centred when the title is wider
    bottom = (fig_h - top - ax_h + bottom) / 2  # centred when the legend needs the height
    dpi = _dpi(mode, unit, fig_w, fig_h)

    fig = Figure(figsize=(fig_w, fig_h), dpi=dpi, facecolor="white")
    ax = fig.add_axes((left / fig_w, bottom / fig_h, ax_w / fig_w, ax_h / fig_h))
    ax.set_axis_off()
    ax.set_xlim(x0 - 0.5, x1 + 0.5)
    roots = [n for n in graph if graph.in_degree(n) == 0]
    ax.set_ylim(-depth - 0.5, 0.5 if len(roots) < 2 else 0.95)

    key = color_key(graph)
    colors = node_colors(graph, key)
    _draw_edges(ax, graph, pos, mode, unit)
    if mode in ("board", "text"):
        half = _draw_boxes(ax, graph, pos, colors, texts, unit, level_h)
        _draw_edge_actions(ax, graph, pos, unit, half)
    else:
        radius = 0.45 * unit / level_h  # a marker's half height, in levels
        half = {n: (radius, 0.0) for n in graph}
        _draw_markers(ax, graph, pos, colors, mode, unit)
    _draw_stubs(ax, graph, pos, half, mode, unit)
    if len(roots) > 1:  # bidirectional search: say which tree grows from which end
        for i, r in enumerate(roots):
            top = half[r][0] + half[r][1] + 0.1
            ax.text(
                pos[r][0],
                pos[r][1] + top,
                "from the start" if i == 0 else "from a goal (backwards)",
                ha="center",
                va="bottom",
                fontsize=8 * k,
                color="#333333",
                style="italic",
            )

    bar_h = min(ax_h, 4.0 * k)
    _colorbar(fig, graph, key, (left + ax_w + 0.3 * k, bottom + (ax_h - bar_h) / 2, 0.14 * k, bar_h), k)
    _legend(fig, graph, mode, min(bottom, 0.55 * k) / 2 / fig_h, k)
    for i, (line, style) in enumerate(heading):
        fig.text(
            0.5,
            1 - (0.18 + 0.22 * i) * k / fig_h,
            line,
            ha="center",
            va="top",
            fontsize=(11 if i == 0 else 8.5) * k,
            fontweight="bold" if i == 0 else "normal",
            color=PATH_RED if style == "warn" else "black",
        )
    # zlib's default 6 is 4x slower
    extra: dict[str, Any] = {"pil_kwargs": {"compress_level": 2}} if fmt == "png" else {}
    fig.savefig(path, format=fmt, dpi=dpi, facecolor="white", **extra)


# -- sizing -------------------------------------------------------------------------------
def _extent(graph: Any, compact: bool) -> tuple[dict, float, float, float]:
    """The layout and its extent: (positions, min x, max x, depth).  ``compact`` gives
    duplicates, drawn as small crosses, half a unit of room."""
    if compact:
        pos = tidy_layout(graph, size=lambda n: 0.5 if graph.nodes[n].get("status") == "duplicate" else 1.0)
    else:
        pos = tidy_layout(graph)
    if not pos:
        return pos, 0.0, 0.0, 0.0
    xs = [p[0] for p in pos.values()]
    return pos, min(xs), max(xs), max(-p[1] for p in pos.values())


def _choose_mode(graph: Any, board_labels):
    """The richest way to show nodes that fits:
    (mode, texts, unit inches, level inches, layout extent)."""
    n = graph.number_of_nodes()
    extent = _extent(graph, compact=False)
    span, levels = extent[2] - extent[1] + 1, extent[3] + 1
    if board_labels is not None and n <= 80:
        texts = {}
        for node, d in graph.nodes(data=True):
            if "state" not in d:
                break
            gh = f"g={_num(d['g'])} h={_num(d['h'])}" if graph.graph.get("h_computed", True) else f"g={_num(d['g'])}"
            texts[node] = str(board_labels(d["state"], d.get("reached_by"))).rstrip("\n") + "\n" + gh
        else:
            unit, level_h = _box_size(texts)
            if span * unit <= MAX_AX_W:
                return "board", texts, unit, level_h, extent
    if n <= 150:
        texts = {node: str(d.get("label", node)) for node, d in graph.nodes(data=True)}
        if all("\n" not in t and len(t) <= 18 for t in texts.values()):
            unit, level_h = _box_size(texts)
            if span * unit <= MAX_AX_W:
                return "text", texts, unit, level_h, extent
    extent = _extent(graph, compact=True)
    span = extent[2] - extent[1] + 1
    if n <= 400:
        digits = len(str(max((d.get("order", 0) for _n, d in graph.nodes(data=True)), default=1)))
        unit = max(0.26, 0.09 * digits + 0.12)
        if span * unit <= MAX_AX_W:
            return "order", {}, unit, 0.55, extent
    unit = min(0.3, MAX_DOTS_W / span)
    level_h = min(MAX_AX_H / levels, max(0.6, span * unit / MAX_ASPECT / levels))
    return "dots", {}, unit, max(level_h, 0.1), extent


def _box_size(texts: dict) -> tuple[float, float]:
    """Layout unit and level height that fit the widest and tallest label box."""
    lines = [t.split("\n") for t in texts.values()] or [[""]]
    chars = max(len(line) for ls in lines for line in ls)
    rows = max(len(ls) for ls in lines)
    box_w = chars * CHAR_W + 2 * BOX_PAD * FONT / 72
    box_h = rows * LINE_H + 2 * BOX_PAD * FONT / 72
    return box_w + 0.14, box_h + ORDER_H + 0.36


def _dpi(mode: str, unit: float, fig_w: float, fig_h: float) -> float:
    """150 dpi, or enough for 8 pixels a unit of dots, within a pixel budget (PNG
    encoding time grows with the area)."""
    want = 150.0 if mode != "dots" else max(100.0, min(200.0, 8.0 / unit))
    return max(30.0, min(want, MAX_PIXELS / max(fig_w, fig_h), (MAX_AREA / (fig_w * fig_h)) ** 0.5))


def _num(x: float) -> str:
    if not math.isfinite(x):
        return "inf"
    return str(int(x)) if float(x).is_integer() else f"{x:.3g}"


def _heading(graph: Any, title: str) -> list[tuple[str, str]]:
    """Title lines: the caller's title, what the tree holds, and whether it was cut."""
    gd = graph.graph
    n = graph.number_of_nodes()
    expanded = sum(1 for _n, d in graph.nodes(data=True) if d.get("order", 0) > 0)
    parts = [f"{n:,} nodes", f"{expanded:,} expanded"]
    if gd.get("engine"):
        parts.insert(0, str(gd["engine"]))
    if "bound" in gd:
        parts.append(f"last iteration, bound {_num(gd['bound'])}")
    if "path_length" in gd:
        parts.append(f"solution {gd['path_length']} steps, cost {_num(gd['path_cost'])}")
        drawn = gd.get("path_nodes_drawn", gd["path_length"] + 1)
        if 0 < drawn < gd["path_length"] + 1:
            parts[-1] += f" ({drawn - 1} drawn)" if "bidirectional" not in str(gd.get("engine")) else " (partly drawn)"
    elif gd.get("status"):
        parts.append(str(gd["status"]))
    lines = [(title or "search tree", ""), ("  ·  ".join(parts), "")]
    if gd.get("truncated"):
        lines.append(
            (
                f"tree cut at {gd.get('max_nodes', n):,} nodes: {gd.get('dropped', 0):,} more generated "
                f"nodes not drawn ({gd.get('generations', 0):,} generated in all)",
                "warn",
            )
        )
    return lines


# -- drawing ------------------------------------------------------------------------------
def _draw_edges(ax, graph, pos, mode: str, unit: float) -> None:
    from matplotlib.collections import LineCollection

    plain, muted, red = [], [], []
    for u, v, d in graph.edges(data=True):
        seg = (pos[u], pos[v])
        if d.get("on_path"):
            red.append(seg)
        elif graph.nodes[v].get("status") == "duplicate":
            muted.append(seg)
        else:
            plain.append(seg)
    thin = 0.9 if mode in ("board", "text", "order") else max(0.25, min(0.8, unit * 4))
    ax.add_collection(LineCollection(plain, colors="#555555", linewidths=thin, zorder=1))
    ax.add_collection(LineCollection(muted, colors="#bbbbbb", linewidths=thin * 0.8, zorder=1))
    ax.add_collection(LineCollection(red, colors=PATH_RED, linewidths=max(1.5, thin * 3), zorder=2))


def _draw_boxes(ax, graph, pos, colors, texts, unit: float, level_h: float) -> dict:
    """A label box per node, with the expansion order above it; returns each box's half
    height and the room its order label takes, in levels."""
    styles = {"expanded": "solid", "generated": "dashed", "pruned": "dashdot", "duplicate": "dotted", "path": "solid"}
    half = {}
    for node, d in graph.nodes(data=True):
        x, y = pos[node]
        status = d.get("status", "generated")
        faded = status in ("duplicate", "pruned")
        face = _mix(colors[node], 0.55) if faded else colors[node]
        ink = "#555555" if status == "duplicate" else ("black" if _light(face) else "white")
        on_path = d.get("on_path")
        ax.text(
            x,
            y,
            texts[node],
            ha="center",
            va="center",
            fontsize=FONT,
            family="monospace",
            color=ink,
            zorder=4,
            linespacing=1.1,
            bbox=dict(
                boxstyle=f"round,pad={BOX_PAD}",
                fc=face,
                ec=PATH_RED if on_path else "#333333",
                lw=2.2 if on_path else 0.8,
                ls=styles.get(status, "solid"),
            ),
        )
        hb = ((texts[node].count("\n") + 1) * LINE_H + 2 * BOX_PAD * FONT / 72) / 2
        half[node] = (hb / level_h, 0.0)
        if d.get("order", 0) > 0:  # over the box's left corner, clear of the edge coming in
            wb = max(len(line) for line in texts[node].split("\n")) * CHAR_W / 2 + BOX_PAD * FONT / 72
            ax.text(
                x - wb / unit,
                y + (hb + 0.03) / level_h,
                f"#{d['order']}",
                ha="left",
                va="bottom",
                fontsize=FONT - 1,
                color=PATH_RED if on_path else "#222222",
                fontweight="bold",
                zorder=5,
                bbox=dict(boxstyle="square,pad=0.08", fc="white", ec="none", alpha=0.9),
            )
            half[node] = (hb / level_h, ORDER_H / level_h)
    return half


def _draw_edge_actions(ax, graph, pos, unit: float, half: dict) -> None:
    """Action names halfway along the visible part of each edge, when they fit between
    the edges of neighbouring siblings."""
    placed = []
    for u, v, d in graph.edges(data=True):
        (xu, yu), (xv, yv) = pos[u], pos[v]
        top = yu - half[u][0]  # the parent box's bottom
        bottom = yv + half[v][0] + half[v][1]  # above the child's box and order label
        t = (yu - (top + bottom) / 2) / (yu - yv)
        placed.append((xu + t * (xv - xu), yu + t * (yv - yu), t, str(d.get("action", ""))))
    if not placed:
        return
    room = min(t for _x, _y, t, _a in placed) * unit  # inches between sibling edges there
    widest = max(len(a) for *_xyt, a in placed) * 0.6 * ACTION_FONT / 72 + 0.06
    if widest > room:
        return
    for x, y, _t, a in placed:
        ax.text(
            x,
            y,
            a,
            ha="center",
            va="center",
            fontsize=ACTION_FONT,
            color="#444444",
            zorder=3,
            bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.9),
        )


def _draw_markers(ax, graph, pos, colors, mode: str, unit: float) -> None:
    """A marker per node; in ``order`` mode a disc with the expansion order inside."""
    size_pt = unit * 72 * (0.82 if mode == "order" else 0.8)
    groups: dict[str, list] = {}
    for node, d in graph.nodes(data=True):
        status = d.get("status", "generated")
        if status == "path":
            status = "expanded" if d.get("order", 0) > 0 else "generated"
        groups.setdefault(status, []).append(node)
    for status, nodes in groups.items():
        marker = MARKERS[status]
        area = (size_pt * (0.8 if marker in "sv" else 1.0)) ** 2
        if status == "duplicate":
            area *= 0.25  # laid out in half a unit
        kw: dict[str, Any] = dict(linewidths=0.6 if marker == "x" else 0.3)
        if marker != "x":
            kw["edgecolors"] = "#222222" if mode == "order" else "none"
        ax.scatter(
            [pos[n][0] for n in nodes],
            [pos[n][1] for n in nodes],
            s=area,
            marker=marker,
            c=[colors[n] for n in nodes],
            zorder=3,
            **kw,
        )
    path_nodes = [n for n, d in graph.nodes(data=True) if d.get("on_path")]
    if path_nodes:
        ax.scatter(
            [pos[n][0] for n in path_nodes],
            [pos[n][1] for n in path_nodes],
            s=(size_pt * 1.25) ** 2,
            facecolors="none",
            edgecolors=PATH_RED,
            linewidths=max(0.8, min(2.0, size_pt / 6)),
            zorder=4,
        )
    if mode == "order":
        for node, d in graph.nodes(data=True):
            if d.get("order", 0) > 0:
                ink = "black" if _light(colors[node]) else "white"
                ax.text(
                    pos[node][0],
                    pos[node][1],
                    str(d["order"]),
                    ha="center",
                    va="center",
                    fontsize=5.5,
                    color=ink,
                    zorder=5,
                )


def _draw_stubs(ax, graph, pos, half: dict, mode: str, unit: float) -> None:
    """A dotted stub under each node whose children the cap left out: "it goes on"."""
    from matplotlib.collections import LineCollection

    segs = []
    for node, d in graph.nodes(data=True):
        if d.get("children_cut"):
            x, y = pos[node]
            top = y - half[node][0]
            segs.append(((x, top), (x, top - 0.3 * (1 - 2 * half[node][0]))))
    if segs:
        width = 1.2 if mode != "dots" else max(0.4, min(1.2, unit * 5))
        ax.add_collection(LineCollection(segs, colors="#777777", linewidths=width, linestyles=(0, (1, 1)), zorder=2))


def _colorbar(fig, graph, key: str, box: tuple[float, float, float, float], k: float) -> None:
    """A colour bar at ``box`` (x, y, width, height in inches), furniture scaled by ``k``."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    lo, hi = value_range(graph, key)
    fw, fh = fig.get_figwidth(), fig.get_figheight()
    cax = fig.add_axes((box[0] / fw, box[1] / fh, box[2] / fw, box[3] / fh))
    sm = ScalarMappable(norm=Normalize(lo, hi), cmap=colormaps[CMAP])
    bar = fig.colorbar(sm, cax=cax)
    bar.set_label("f = g + h" if key == "f" else "depth", fontsize=8 * k)
    bar.ax.tick_params(labelsize=7 * k, width=0.8 * k, length=3.5 * k)
    bar.outline.set_linewidth(0.8 * k)
    ticks = range(math.ceil(lo), math.floor(hi) + 1)
    if 2 <= len(ticks) <= 16:  # integer costs: integer ticks
        bar.set_ticks(list(ticks))


def _legend(fig, graph, mode: str, y: float, k: float) -> None:
    """Entries for the node kinds this tree has, and the solution path if marked."""
    from matplotlib.artist import Artist
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    present = {d.get("status") for _n, d in graph.nodes(data=True)}
    if "path" in present:
        present |= {
            "expanded" if d.get("order", 0) else "generated" for _n, d in graph.nodes(data=True) if d.get("on_path")
        }
    blue = (0.56, 0.7, 0.79)
    boxes = mode in ("board", "text")
    entries = [
        ("expanded", "expanded (#order)" if boxes else "expanded" + (" (order)" if mode == "order" else "")),
        ("generated", "generated only"),
        ("pruned", "pruned (over the bound)"),
        ("duplicate", "duplicate"),
    ]
    handles: list[Artist] = []
    for status, text in entries:
        if status not in present:
            continue
        if boxes:
            styles = {"expanded": "solid", "generated": "dashed", "pruned": "dashdot"}
            face = _mix(MUTED if status == "duplicate" else blue, 0.55 if status in ("pruned", "duplicate") else 0)
            handles.append(Patch(fc=face, ec="#333333", ls=styles.get(status, "dotted"), label=text))
        elif status == "duplicate":
            handles.append(Line2D([], [], ls="", marker="x", mec="#999999", label=text))
        else:
            handles.append(Line2D([], [], ls="", marker=MARKERS[status], mfc=blue, mec="#222222", label=text))
    if "path" in present:
        handles.append(Line2D([], [], color=PATH_RED, lw=2.2 * k, label="solution path"))
    if any(d.get("children_cut") for _n, d in graph.nodes(data=True)):
        handles.append(Line2D([], [], color="#777777", lw=1.2 * k, ls=(0, (1, 1)), label="children not recorded"))
    if handles:
        fig.legend(
            handles=handles,
            loc="center",
            bbox_to_anchor=(0.5, y),
            ncol=len(handles),
            frameon=False,
            fontsize=8 * k,
            handlelength=1.6,
            markerscale=k,
        )


def _mix(rgb, t: float) -> tuple[float, float, float]:
    """``rgb`` blended with white by ``t``."""
    return tuple(c + (1 - c) * t for c in rgb)


def _light(rgb) -> bool:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b > 0.55
