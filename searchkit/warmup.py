"""Compiled code loaded ahead: each engine's one-off set-up (`EngineInfo.warm_up`), run once.

Why: numba compiles a kernel the first time it runs anywhere and caches it on disk, so the
first solve after installing spends part of its time limit compiling (the Sokoban kernels:
9-11 s on the project's machine, half a second from the cache after; on a fresh install
``searchkit solve sokoban microban:153 --no-improve`` searched 9.9 s, the compiled pull
search's share gone on compiling, where after a warm-up it searches 1.2 s).
``searchkit warm-up`` pays that once, up front, as the benchmark runner does in its parent
process before timing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from time import perf_counter
from typing import Any

from .errors import InputError

WarmUp = tuple[list[str], Callable[[], None]]  # the engines served, the set-up


def warm_ups(infos: Iterable[Any], names: list[str] | None = None) -> list[WarmUp]:
    """The set-ups of the engines ``infos`` (`EngineInfo`; ``names``: only those engines),
    each once with the engines it serves (several engines share one), in the engines' order.
    An unknown name is an `InputError`."""
    infos = list(infos)
    if names:
        known = {e.name: e for e in infos}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise InputError(f"unknown engine {unknown[0]!r} (see `searchkit engines`)")
        infos = [known[n] for n in dict.fromkeys(names)]
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
