"""Search trees as files for other tools: GraphML, GEXF (Gephi), DOT (Graphviz), JSON.

Every writer gets a copy of the tree whose attributes are plain ``str``/``int``/``float``/
``bool`` (the raw ``state`` objects stay behind; ``label`` names the state), so each file
reads back with networkx.  DOT goes through pydot and needs no Graphviz binary; it carries
colours and the highlighted path so ``dot -Tsvg`` shows the same story as our pictures.
"""

from __future__ import annotations

import json
from os import PathLike
from typing import Any

PLAIN = (str, int, float, bool)
RAW = ("state", "reached_by")  # node attributes for drawing only


def plain_copy(graph: Any):
    """A copy of ``graph`` keeping only attributes of plain types, without raw states."""
    out = graph.__class__()
    out.graph.update({k: v for k, v in graph.graph.items() if isinstance(v, PLAIN)})
    for n, data in graph.nodes(data=True):
        out.add_node(n, **{k: v for k, v in data.items() if k not in RAW and isinstance(v, PLAIN)})
    for u, v, data in graph.edges(data=True):
        out.add_edge(u, v, **{k: x for k, x in data.items() if isinstance(x, PLAIN)})
    return out


def write_graphml(graph: Any, path: str | PathLike[str]) -> None:
    import networkx as nx

    nx.write_graphml(plain_copy(graph), path)


def write_gexf(graph: Any, path: str | PathLike[str]) -> None:
    """GEXF with the tidy layout and the f colours as Gephi ``viz`` data."""
    import networkx as nx

    from .colors import node_rgb
    from .layout import tidy_layout

    g = plain_copy(graph)
    pos = tidy_layout(g)
    rgb = node_rgb(g)
    for n, data in g.nodes(data=True):
        x, y = pos[n]
        r, gr, b = rgb[n]
        data["viz"] = {
            "position": {"x": 40.0 * x, "y": 80.0 * y, "z": 0.0},
            "color": {"r": r, "g": gr, "b": b, "a": 1.0},
            "size": 6.0 if data.get("on_path") else 3.0,
        }
    nx.write_gexf(g, path)


def write_dot(graph: Any, path: str | PathLike[str]) -> None:
    import networkx as nx

    from .colors import node_rgb

    g = plain_copy(graph)
    rgb = node_rgb(g)
    title = g.graph.get("title") or ""
    g.graph = {
        "graph": {"rankdir": "TB", "label": _dot_quote(title)} if title else {"rankdir": "TB"},
        "node": {"style": "filled", "fontsize": "10"},
    }
    for n, data in g.nodes(data=True):
        attrs = {k: _dot_quote(v) if isinstance(v, str) else v for k, v in data.items()}
        data.clear()
        data.update(attrs)
        r, gr, b = rgb[n]
        data["fillcolor"] = f'"#{r:02x}{gr:02x}{b:02x}"'
        data["fontcolor"] = "white" if 0.299 * r + 0.587 * gr + 0.114 * b < 140 else "black"
        data["shape"] = "box" if data["status"] in ('"duplicate"', '"pruned"') else "ellipse"
        if data.get("on_path"):
            data["color"], data["penwidth"] = "red", 3
    for _u, _v, data in g.edges(data=True):
        attrs = {k: _dot_quote(v) if isinstance(v, str) else v for k, v in data.items()}
        data.clear()
        data.update(attrs)
        if data.get("on_path"):
            data["color"], data["penwidth"] = "red", 3
    text = nx.nx_pydot.to_pydot(g).to_string()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _dot_quote(text: str) -> str:
    """A DOT string literal (pydot passes already-quoted values through unchanged)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_json(graph: Any, path: str | PathLike[str]) -> None:
    """Node-link JSON under the ``edges`` key; an infinite ``h`` (a dead end) is written as
    ``Infinity``, which Python's json reads back."""
    import networkx as nx

    data = nx.node_link_data(plain_copy(graph), edges="edges")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


WRITERS = {".graphml": write_graphml, ".gexf": write_gexf, ".dot": write_dot, ".json": write_json}
