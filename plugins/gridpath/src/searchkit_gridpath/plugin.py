"""The plugin's hooks: what searchkit finds through the ``searchkit`` entry point.

Three hooks, each a few lines: a new domain, a new engine, and a heuristic for a domain
another plugin provides.  Heavy modules are imported inside the hooks, so loading the
plugin costs nothing until searchkit asks.
"""

from searchkit import EngineInfo, hookimpl


@hookimpl
def register_domains(register):
    from .domain import GridPathDomain

    register(GridPathDomain())


@hookimpl
def register_engines(register):
    from .jps import jps

    register(
        EngineInfo(
            "jps",
            jps,
            "jump point search: A* over jump points on 8-connected grid maps (gridpath)",
            heuristic="ignored",
            optimal="cost",
            domains=("gridpath",),
        )
    )


@hookimpl
def register_heuristics(register):
    from .inversions import INVERSION_MAX

    register("npuzzle", INVERSION_MAX)  # ignored when the n-puzzle plugin is not installed
