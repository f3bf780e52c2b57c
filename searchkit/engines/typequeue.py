"""Type-based exploration: an open list that draws a random *type* first, then a state of it.

Greedy best-first search stalls on plateaus: millions of states share the best estimate and
the open list offers them in one fixed order, so the search digs through one corner of the
plateau while the way out lies in another.  Type-based exploration (Xie, Müller and Holte,
"Type-Based Exploration with Multiple Search Queues for Satisficing Planning", AAAI 2014)
adds a queue that ignores the ordering: states are grouped by type, here the pair
``(h, g)``, and each turn picks a type uniformly at random and then a state of that type
uniformly at random.  Rare types (a deep state with a poor estimate, a shallow one with a
good estimate) get as many turns as the crowded type of the plateau, so the search samples
the whole frontier.  It takes turns with the greedy lists (`BestFirstSearch` with
``orders`` holding `by_type`), so it costs at most a share of the expansions.

The draws are seeded: the same search expands the same states on every run.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

SEED = 1  # the draws' seed: runs repeat exactly


class TypeQueue:
    """Open entries ``(..., h, g, state)`` (the core's heap entries) grouped by ``(h, g)``;
    `pop` takes a random entry of a random type (each in constant time)."""

    def __init__(self, seed: int = SEED):
        self.groups: dict[tuple[Any, Any], list[tuple[Any, ...]]] = {}
        self.types: list[tuple[Any, Any]] = []  # the types that hold entries, for a draw
        self.size = 0
        self.rng = Random(seed)

    def push(self, entry: tuple[Any, ...]) -> None:
        kind = (entry[-3], entry[-2])
        group = self.groups.get(kind)
        if group is None:
            group = self.groups[kind] = []
            self.types.append(kind)
        group.append(entry)
        self.size += 1

    def pop(self) -> tuple[Any, ...]:
        """A random entry of a random type (IndexError when empty, as `heapq.heappop`)."""
        types, below = self.types, self.rng.randrange
        if not types:
            raise IndexError("pop from an empty type queue")
        i = below(len(types))
        group = self.groups[types[i]]
        j = below(len(group))
        entry = group[j]
        group[j] = group[-1]  # swap with the last: removal in constant time
        group.pop()
        if not group:
            del self.groups[types[i]]
            types[i] = types[-1]
            types.pop()
        self.size -= 1
        return entry

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        for group in self.groups.values():
            yield from group
