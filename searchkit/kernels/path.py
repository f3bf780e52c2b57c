"""The answer of a compiled search, rebuilt in compiled code: the moves from a table's root to
a row, and the states and costs along those moves (kernel templates, numba's subset, compiled in
each generated module, `searchkit.kernels.generate`).

Why compiled: rebuilding a path in Python costs about 1.5 microseconds a step (a call of the
rules' ``apply`` from Python, copies of the words), which on a grid path of thousands of steps
outweighs a search that expands tens of thousands of states.  Here a step costs a few
nanoseconds; what is left in Python is the domain's ``decode`` and ``action`` per step.
"""

from __future__ import annotations

from typing import Any

from .rules import apply


def trace_moves(parent: Any, move: Any, slot: int, out: Any) -> int:
    """The moves from a root (a row whose parent is -1) to row ``slot`` of a table whose rows
    name their ``parent`` row and the ``move`` that reached them: written in order to
    ``out[:n]``; returns ``n``, or ``-n`` when ``out`` holds fewer than ``n`` (nothing
    written then)."""
    n = 0
    i = slot
    while parent[i] >= 0:
        n += 1
        i = parent[i]
    if n > out.shape[0]:
        return -n
    i = slot
    for k in range(n - 1, -1, -1):
        out[k] = move[i]
        i = parent[i]
    return n


def root_of(parent: Any, slot: int) -> int:
    """The root (the row whose parent is -1) that row ``slot`` descends from."""
    i = slot
    while parent[i] >= 0:
        i = parent[i]
    return i


def replay_moves(s: Any, moves: Any, ctx: Any, words: Any, costs: Any) -> None:
    """Make ``moves`` from the state ``s`` in turn (``s`` changed in place): ``words[i]`` the
    state before move ``i`` and ``words[len(moves)]`` the last, ``costs[i]`` the cost of move
    ``i`` (``words`` has a row more than ``moves`` and ``s``'s width; ``costs`` a row per move)."""
    n = moves.shape[0]
    for i in range(n):
        words[i, :] = s
        costs[i] = apply(s, moves[i], ctx)
    words[n, :] = s


TEMPLATES = (trace_moves, root_of, replay_moves)
