"""Compiled code loaded ahead: each engine's one-off set-up (`EngineInfo.warm_up`), run once,
and the kernels of each domain's compiled rules (`searchkit.kernels`), compiled once per rules
module.

Why: numba compiles a kernel the first time it runs anywhere and caches it on disk, so the
first solve after installing spends part of its time limit compiling (the Sokoban kernels:
9-11 s on the project's machine, half a second from the cache after; on a fresh install
``searchkit solve sokoban microban:153 --no-improve`` searched 9.9 s, the compiled pull
search's share gone on compiling, where after a warm-up it searches 1.2 s).
The generic engines (``astar``, ``idastar``, ``greedy``, ``bfs``) running over a domain's
compiled rules compile kernels specialised to its rules module the same way (the n-puzzle's
Manhattan rules: about 7 s).  ``searchkit warm-up`` pays that once, up front, as the benchmark
runner does in its parent process before timing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from .errors import InputError

WarmUp = tuple[list[str], Callable[[], None]]  # the engines served, the set-up


def _named(items: list[Any], names: list[str] | None, what: str, command: str) -> list[Any]:
    """``items`` (each with a ``name``), or those named by ``names`` in that order, each once;
    an unknown name is an `InputError` pointing at ``searchkit COMMAND``."""
    if not names:
        return items
    known = {item.name: item for item in items}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InputError(f"unknown {what} {unknown[0]!r} (see `searchkit {command}`)")
    return [known[n] for n in dict.fromkeys(names)]


def warm_ups(infos: Iterable[Any], names: list[str] | None = None) -> list[WarmUp]:
    """The set-ups of the engines ``infos`` (`EngineInfo`; ``names``: only those engines),
    each once with the engines it serves (several engines share one), in the engines' order.
    An unknown name is an `InputError`."""
    infos = _named(list(infos), names, "engine", "engines")
    groups: dict[Any, WarmUp] = {}
    for e in infos:
        if e.warm_up is not None:
            groups.setdefault(e.warm_up, ([], e.warm_up))[0].append(e.name)
    return list(groups.values())


def run_warm_ups(groups: list[WarmUp], before: Callable[[list[str]], None] | None = None) -> list[dict[str, Any]]:
    """Run each set-up (``before``: told the engines of each as it starts); per set-up its
    engines and the seconds it took."""
    done = []
    for engines, warm_up in groups:
        if before is not None:
            before(engines)
        began = perf_counter()
        warm_up()
        done.append({"engines": engines, "seconds": round(perf_counter() - began, 3)})
    return done


@dataclass
class RulesWarmUp:
    """The kernels of one rules module to compile: ``module`` (`CompiledRules.module`), the
    ``domains`` whose problems run over it, and the first such ``problem`` with its ``rules``."""

    module: str
    domains: list[str]
    problem: Any
    rules: Any


def rules_warm_ups(doms: Iterable[Any], names: list[str] | None = None) -> list[RulesWarmUp]:
    """The compiled rules of the domains ``doms`` (`Domain`; ``names``: only those domains)
    to warm up: one per rules module and types of its context (what numba compiles a kernel
    for), from each domain's `Domain.warm_up_problems`, in the domains' order.  Builds those
    problems (the cost of ``searchkit check``'s).  None where numba is not available (nothing
    runs compiled); an unknown name is an `InputError`."""
    doms = _named(list(doms), names, "domain", "domains")
    from .compiled import numba_available

    if not numba_available():
        return []
    from .kernels.rules import rules_of

    found: dict[tuple[Any, ...], RulesWarmUp] = {}
    for dom in doms:
        for problem in dom.warm_up_problems():
            rules = rules_of(problem)
            if rules is None:
                continue
            key = (rules.module, *map(_argument_type, rules.context))
            if key not in found:
                found[key] = RulesWarmUp(rules.module, [dom.name], problem, rules)
            elif dom.name not in found[key].domains:
                found[key].domains.append(dom.name)
    return list(found.values())


def _argument_type(value: Any) -> Any:
    """The type numba compiles a kernel for when ``value`` is passed (an array's dtype,
    dimensions, layout and whether it is read-only)."""
    from numba import typeof

    return typeof(value)  # type: ignore[no-untyped-call]


def run_rules_warm_ups(
    found: list[RulesWarmUp], before: Callable[[RulesWarmUp], None] | None = None
) -> list[dict[str, Any]]:
    """Compile (or load from numba's cache) every kernel of each rules module in ``found``
    (`searchkit.kernels.search.warm_up`; ``before``: told each as it starts); per module
    ``{"rules": module, "domains": [...], "seconds": ...}``."""
    from .kernels.search import warm_up

    done = []
    for item in found:
        if before is not None:
            before(item)
        began = perf_counter()
        warm_up(item.problem, item.rules)
        done.append({"rules": item.module, "domains": item.domains, "seconds": round(perf_counter() - began, 3)})
    return done
