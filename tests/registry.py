"""The engines the contract tests run: every registered engine that works on any problem.

Tests parametrized over `GENERIC_ENGINES` (oracle, limits, observer, replay) cover a new
engine as soon as it is registered, plugins' domain-agnostic engines included.  A required
parameter (a composite engine's members or heuristics) takes its value from `EXAMPLES`,
which names the heuristic variants `with_variants` gives a test problem; an engine with a
required parameter missing there fails `test_every_required_parameter_has_an_example`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from searchkit import solve
from searchkit.plugins import domains, engines, get_plugin_manager, registry_changed
from searchkit.problem import can_search_backward

EXAMPLES = {"heuristics": "h,zero", "members": "astar:h,backward,dijkstra"}
FORWARD_ONLY = {"members": "astar:h,dijkstra"}  # for problems without predecessors


def generic_engines() -> dict[str, dict[str, Any]]:
    """Every registered engine without a domain of its own, with its required parameters."""
    out = {}
    for name, info in sorted(engines().items()):
        if info.domains:
            continue
        out[name] = {p: EXAMPLES[p] for p, spec in info.specs.items() if spec.required and p in EXAMPLES}
    return out


def missing_examples() -> list[str]:
    return [
        f"{name} -P {p}"
        for name, info in engines().items()
        if not info.domains
        for p, spec in info.specs.items()
        if spec.required and p not in EXAMPLES
    ]


PARAMS = generic_engines()
GENERIC_ENGINES = list(PARAMS)


class _Zero:
    """The problem with h = 0 everywhere (a variant that still gives estimates)."""

    def __init__(self, problem: Any):
        self.inner = problem

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def heuristic(self, state: Any) -> float:
        return 0

    def successors_with_h(self, state: Any, _h: float):
        return [(a, s, c, 0) for a, s, c in self.inner.successors(state)]


def with_variants(problem: Any) -> Any:
    """``problem`` offering ``variant("h")`` (itself; h = 0 when it has no heuristic) and
    ``variant("zero")``, as the command line gives every domain's problems."""
    zero = _Zero(problem)
    own = problem if getattr(problem, "heuristic", None) is not None else zero
    problem.variant = lambda name: own if name == "h" else zero if name == "zero" else None
    return problem


def run(problem: Any, engine: str, **kwargs: Any):
    """`solve` with the engine's example parameters (``kwargs`` win).  An engine that needs a
    backward heuristic gets 0 everywhere (the weakest admissible one) on a problem with
    none; ``test_nbs`` gives it real ones."""
    params = dict(PARAMS.get(engine, {}))
    if not can_search_backward(problem):
        params.update((k, v) for k, v in FORWARD_ONLY.items() if k in params)
    elif engines()[engine].backward_heuristic == "required" and getattr(problem, "backward_heuristic", None) is None:
        problem.backward_heuristic = lambda _state: 0
    return solve(with_variants(problem), engine, **dict(params, **kwargs))


def usable(engine: str, problem: Any) -> bool:
    """False for a backward engine on a problem without goal states and predecessors."""
    return not engines()[engine].backward or can_search_backward(problem)


@contextmanager
def plugin_registered(plugin: Any, name: str) -> Iterator[None]:
    """``plugin`` registered with searchkit for the block, with the ``solve``, ``tree`` and
    ``check`` commands of the domains it adds on the command line (which is built once a
    process, maybe before this plugin came); all of it taken away after."""
    from searchkit.cli import add_domain_commands, build_app

    build_app()
    before = set(domains())
    pm = get_plugin_manager()
    pm.register(plugin, name=name)
    registry_changed()
    added = []
    try:
        for dom_name, dom in domains().items():
            if dom_name not in before:
                added += add_domain_commands(dom)
        yield
    finally:
        for group, info in added:
            group.registered_commands.remove(info)
        pm.unregister(name=name)
        registry_changed()
