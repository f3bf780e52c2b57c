"""No import cycle anywhere in the core or the bundled plugins, imports inside functions included.

A cycle hidden in a function-level import still ties two modules into one: neither can be
read, tested or moved without the other.  The modules are parsed, not imported, so every
import counts wherever it sits; ``from package import name`` counts as an import of the
module ``package.name`` when there is one, otherwise of ``package``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "searchkit": ROOT / "searchkit",
    "searchkit_npuzzle": ROOT / "plugins" / "searchkit_npuzzle",
    "searchkit_sokoban": ROOT / "plugins" / "searchkit_sokoban",
    "searchkit_gridpath": ROOT / "plugins" / "gridpath" / "src" / "searchkit_gridpath",
}


def modules(packages: dict[str, Path]) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package's __init__)."""
    out = {}
    for name, root in packages.items():
        for path in sorted(root.rglob("*.py")):
            parts = [name, *path.relative_to(root).with_suffix("").parts]
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            out[".".join(parts)] = (path, is_package)
    return out


def import_graph(packages: dict[str, Path]) -> nx.DiGraph:
    """Module -> module edges for every import statement in ``packages``."""
    known = modules(packages)
    graph = nx.DiGraph()
    graph.add_nodes_from(known)

    def owner(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for name, (path, is_package) in known.items():
        package = name.split(".") if is_package else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package[: len(package) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            else:
                continue
            for target in targets:
                found = owner(target)
                if found is not None and found != name:
                    graph.add_edge(name, found)
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """The graph's simple cycles, each started at its first module in sorted order (networkx
    may start a cycle at any of its nodes), shortest first."""

    def rotated(cycle: list[str]) -> list[str]:
        first = cycle.index(min(cycle))
        return cycle[first:] + cycle[:first]

    return sorted((rotated(c) for c in nx.simple_cycles(graph)), key=lambda c: (len(c), c))


def test_no_import_cycles():
    found = cycles(import_graph(PACKAGES))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c + c[:1]) for c in found)


def test_the_scan_sees_imports_in_functions_and_reports_a_cycle(tmp_path):
    """The check above can fail: a two-module cycle through a function-level import."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import thing\n")
    (pkg / "b.py").write_text("def thing():\n    from . import a\n    return a\n")
    graph = import_graph({"pkg": pkg})
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
    real = import_graph(PACKAGES)
    assert real.has_edge("searchkit.engines.bestfirst", "searchkit.engines.run")
    assert real.has_edge("searchkit_npuzzle.rules", "searchkit_npuzzle.pdb")  # inside a function
