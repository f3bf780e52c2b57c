"""Problems the tests of every folder share."""

from __future__ import annotations


class Counter:
    """An infinite space ``n -> n + 1, n + 2`` whose goal ``-1`` no forward move reaches.

    The goal has an infinite chain of predecessors too, so bidirectional search cannot
    end by exhausting either side: only a limit stops any engine on it.
    """

    def initial_state(self) -> int:
        return 0

    def is_goal(self, state: int) -> bool:
        return state == -1

    def successors(self, state: int):
        return [("+1", state + 1, 1), ("+2", state + 2, 1)]

    def heuristic(self, state: int) -> float:
        return state % 3  # arbitrary but non-constant, so A*, greedy and IDA* order by it

    def goal_states(self):
        return [-1]

    def predecessors(self, state: int):
        if state < 0:
            return [("-1", state - 1, 1)]
        return [(f"+{d}", state - d, 1) for d in (1, 2) if state - d >= 0]
