"""The Python side of a compiled run: slices, limits, progress, the path and the Result.

A kernel runs a slice of expansions and returns; between slices the driver does what the
Python engines do at their periodic check (`searchkit.engines.run.Run.limit_reached`: the
interrupt, the node, time, state and memory limits, the observer's progress), grows the
tables when a kernel says it needs room (stopping with ``limit``, reason ``"states"`` or
``"memory"``, when that would pass ``max_stored``, the memory limit or the most a table
holds), and at
the end rebuilds the answer by replaying the moves from the start with the rules' own
``apply`` (actions by ``action``, states by ``decode``).  A slice lasts about
`SLICE_SECONDS` (its length adapts), ends at the node limit exactly, and comes close to
``max_stored`` in steps small enough that the table never holds more than ``max_stored +
max_moves`` states.

The entry points the engines call are in `searchkit.kernels.search`.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

import numpy as np

from ..errors import InputError
from ..limits import Limits, current_rss_bytes
from ..observer import Observer
from ..result import Result
from .codes import G_MAX, SLOT_MASK
from .rules import CompiledRules

FIRST_SLICE = 1024  # expansions in the first slice
MAX_SLICE = 1 << 24
SLICE_SECONDS = 0.02  # the time a slice aims at


class Slices:
    """Slice lengths and the check between slices, for one `Run`.

    The first slice expands nothing: it loads the kernel (numba compiles it, or loads it from
    its cache, on the first call in a process), after which the check loads the rest
    (``prime``, e.g. the replay of the answer) and starts the run's clock again
    (`Run.restart`), so none of it counts as search time."""

    def __init__(self, run: Any, max_moves: int, prime: Any = None):
        self.run, self.max_moves, self.prime = run, max_moves, prime
        self.step = FIRST_SLICE
        self.at = perf_counter()
        self.primed = False

    def stop(self, expanded: int, stored: int = 0) -> int:
        """The expansion count at which the next slice ends."""
        if not self.primed:
            return int(expanded)
        step = self.step
        guard = self.run.guard
        if guard.max_stored is not None:  # near the state limit, slices small enough not to pass it far
            step = min(step, max(1, (guard.max_stored - stored) // self.max_moves + 1))
        stop = expanded + step
        if guard.max_expanded is not None and guard.max_expanded < stop:
            stop = guard.max_expanded
        return int(stop)

    def check(self, expanded: int, generated: int, stored: int, best: float | None) -> bool:
        """The periodic check after a slice: True (the run's reason set) when a limit stops the search."""
        if not self.primed:
            self.primed = True
            if self.prime is not None:
                self.prime()
            self.run.restart()
            self.at = perf_counter()
            return False
        now = perf_counter()
        took, self.at = now - self.at, now
        if took < SLICE_SECONDS / 2:
            self.step = min(MAX_SLICE, 2 * self.step)
        elif took > SLICE_SECONDS:
            self.step = max(FIRST_SLICE, self.step // 2)
        return bool(self.run.limit_reached(expanded, generated, stored, best))


class Driver:
    """What every compiled run shares: the problem, its rules and their generated kernels, the `Run`."""

    def __init__(
        self,
        problem: Any,
        rules: CompiledRules,
        kernels: Any,
        name: str,
        limits: Limits | None,
        observer: Observer | None,
    ):
        """``kernels``: the generated module of ``rules`` (`searchkit.kernels.generate`)."""
        from ..engines.run import Run

        self.problem, self.rules, self.kernels = problem, rules, kernels
        self.fns = rules.functions()
        self.run = Run(name, limits, observer)

    def encode(self, state: Any) -> Any:
        """The ``width`` words of ``state``: its key words (`CompiledRules.encode`, checked
        to be ``key_width`` ``uint64``) and the derived ones (the rules' ``derive``)."""
        rules = self.rules
        keys = np.ascontiguousarray(rules.encode(state), dtype=np.uint64)
        if keys.shape != (rules.keys,):
            raise InputError(f"compiled rules {rules.module}: encode gave {keys.shape} words, not ({rules.keys},)")
        return keys if rules.keys == rules.width else rules.words(keys, self.fns["derive"])

    def slices(self, prime: Any = None) -> Slices:
        """The run's `Slices`; ``prime()``, called at the first check, loads the kernels the
        answer's path takes (e.g. `replay` of no moves), so that their loading is not search time."""
        return Slices(self.run, self.rules.max_moves, prime)

    def room_for(self, stored: int, nbytes: int, capacity: int | None) -> bool:
        """Whether a table holding ``stored`` states may claim ``nbytes`` more (its capacity
        doubling from ``capacity``); otherwise the run's reason is set to ``"states"`` (the
        states limit) or ``"memory"`` (the memory limit, or a table at its largest)."""
        guard = self.run.guard
        if guard.max_stored is not None and stored >= guard.max_stored:
            self.run.reason = "states"
            return False
        if (guard.max_rss is not None and current_rss_bytes() + nbytes >= guard.max_rss) or (
            capacity is not None and 2 * capacity > SLOT_MASK
        ):
            self.run.reason = "memory"
            return False
        return True

    def out_of_range(self) -> Result:
        raise InputError(
            f"compiled rules {self.rules.module}: a path cost above {G_MAX} or an estimate above 2**24 - 1 "
            "is beyond the compiled tables"
        )

    def path_to(self, parent: Any, move: Any, slot: int) -> Any:
        """The moves (an ``int64`` array) from the root of a table, row 0, to its row ``slot``,
        the table's rows naming their ``parent`` row and the ``move`` that reached them."""
        out = np.empty(64, dtype=np.int64)
        n = int(self.kernels.trace_moves(parent, move, slot, out))
        if n < 0:
            out = np.empty(-n, dtype=np.int64)
            n = int(self.kernels.trace_moves(parent, move, slot, out))
        return out[:n]

    def replay(self, start: Any, moves: Any) -> tuple[list[Any], list[Any], Any]:
        """``(actions, states, cost)`` of the moves ``moves`` (a list or an array of move codes)
        made from the words ``start``: the states along them computed compiled
        (`searchkit.kernels.path`), then decoded and named in Python."""
        rules = self.rules
        codes = np.asarray(moves, dtype=np.int64)
        words = np.empty((len(codes) + 1, rules.width), dtype=np.uint64)
        costs = np.empty(len(codes), dtype=np.int64)
        self.kernels.replay_moves(start.copy(), codes, rules.context, words, costs)
        words.setflags(write=False)  # the rows are handed to decode and action as they are
        decode, action, keys = rules.decode, rules.action, rules.keys
        full = keys == rules.width
        states = [decode(row if full else row[:keys]) for row in words]
        actions = [action(m, row) for m, row in zip(codes.tolist(), words)]
        return actions, states, int(costs.sum())

    def result(self, status: str, path: tuple[list[Any], list[Any], Any] | None, **counters: int) -> Result:
        out: Result = self.run.result(status, path, **counters)
        out.compiled = True
        return out
