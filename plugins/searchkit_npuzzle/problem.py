"""The sliding-tile puzzle as a `searchkit.Problem` over packed-int states.

A state is one int: cell ``p`` holds ``(state >> (bits * p)) & mask`` and the blank's
cell sits above the tiles (``state >> (bits * n)``).  A 15-puzzle state is a 68-bit int
(36 bytes), hashes fast, and a move is a few shifts - which is what lets the generic
engines store a state in about a hundred bytes and expand hundreds of thousands a second.
Actions are the directions the blank moves: U, D, L, R.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .board import format_board

if TYPE_CHECKING:
    from .features import SolvingOrder
    from .picture import PictureOutputs

OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}


class NPuzzleProblem:
    """A width x height sliding puzzle from ``start`` to ``goal`` (tuples, 0 = blank)."""

    # moves are reversible and the domain rejects unsolvable boards, so depth-first
    # engines need only skip the move straight back
    cycle_check = "parent"
    min_step_cost = 1  # every move costs 1 (NBS uses it to tighten its lower bound)
    backward_heuristic_admissible = True  # Manhattan distance to the start board
    # set by NPuzzleDomain.make_problem (a problem built directly has neither)
    seed: int | None  # the seed of a generated board
    pictures: PictureOutputs | None  # the pictures a run asked for

    def __init__(
        self, width: int, height: int, start: tuple[int, ...], goal: tuple[int, ...], heuristic_name: str | None = None
    ):
        self.width, self.height = width, height
        self.n = n = width * height
        self.start, self.goal = tuple(start), tuple(goal)
        self.bits = max(4, (n - 1).bit_length())
        self.mask = (1 << self.bits) - 1
        self.top = self.bits * n
        self.goal_pos = [0] * n
        for p, t in enumerate(goal):
            self.goal_pos[t] = p
        self.goal_state = self.encode(self.goal)
        self._start_table = self._taxicab_table(self.start)
        self._start_moves: list[list[tuple]] | None = None  # moves_with_tile_delta of _start_table, on first use
        self.heuristic_name = heuristic_name
        self._moves = [self._moves_from(b) for b in range(n)]
        self.heuristic: Callable[[int], float] | None = None
        self.successors_with_h: Callable[[int, float], list] | None = None  # set by use_heuristic
        self.heuristic_admissible = False
        self._solving_order: SolvingOrder | None = None  # `features`' reading, on first use

    # -- encoding -------------------------------------------------------------------------
    def encode(self, board: tuple[int, ...]) -> int:
        bits = self.bits
        state = board.index(0) << self.top
        for p, t in enumerate(board):
            state |= t << (bits * p)
        return state

    def decode(self, state: int) -> tuple[int, ...]:
        bits, mask = self.bits, self.mask
        return tuple((state >> (bits * p)) & mask for p in range(self.n))

    def _moves_from(self, b: int) -> list[tuple]:
        """Moves of the blank at cell b: ``(action, cell p, bits * p, change[t])`` where
        ``state + change[t]`` is the state after tile t slides from p into the blank's cell
        (the blank's cell number, stored above the tiles, changes with it)."""
        w, h, bits, top = self.width, self.height, self.bits, self.top
        r, c = divmod(b, w)
        moves = []
        for action, p, ok in (
            ("U", b - w, r > 0),
            ("D", b + w, r < h - 1),
            ("L", b - 1, c > 0),
            ("R", b + 1, c < w - 1),
        ):
            if ok:
                change = [(t << (bits * b)) - (t << (bits * p)) + ((p - b) << top) for t in range(self.n)]
                moves.append((action, p, bits * p, change))
        return moves

    # -- the Problem protocol ---------------------------------------------------------------
    def initial_state(self) -> int:
        return self.encode(self.start)

    def is_goal(self, state: int) -> bool:
        return state == self.goal_state

    def successors(self, state: int) -> list[tuple[str, int, int]]:
        mask = self.mask
        return [
            (action, state + change[(state >> sp) & mask], 1)
            for action, _p, sp, change in self._moves[state >> self.top]
        ]

    def goal_states(self) -> list[int]:
        return [self.goal_state]

    def predecessors(self, state: int) -> list[tuple[str, int, int]]:
        # moves are reversible: the blank reached `state` from s by the opposite move
        return [(OPPOSITE[a], s, c) for a, s, c in self.successors(state)]

    def backward_heuristic(self, state: int) -> int:
        """Manhattan distance from the start board to ``state`` (bidirectional engines)."""
        bits, mask, table = self.bits, self.mask, self._start_table
        return sum(table[(state >> (bits * p)) & mask][p] for p in range(self.n))

    def predecessors_with_h(self, state: int, hv: int) -> list[tuple[str, int, int, int]]:
        """`predecessors` with `backward_heuristic` of each, from ``state``'s ``hv`` by table lookups."""
        moves = self._start_moves
        if moves is None:
            moves = self._start_moves = self.moves_with_tile_delta(self._start_table)
        mask = self.mask
        out = []
        for action, _p, sp, change, delta in moves[state >> self.top]:
            t = (state >> sp) & mask
            out.append((OPPOSITE[action], state + change[t], 1, hv + delta[t]))
        return out

    def describe(self, state: int) -> str:
        return format_board(self.decode(state), self.width)

    def features(self, state: int) -> tuple[int, int]:
        """The core ``fess`` engine's cell: the solving order's steps left and the next
        tile's distance (`features.SolvingOrder`, made on first use)."""
        order = self._solving_order
        if order is None:
            from .features import SolvingOrder

            order = self._solving_order = SolvingOrder(self)
        return order.features(state)

    def compiled_rules(self):  # -> searchkit.CompiledRules | None
        """The puzzle's compiled rules with its heuristic (`searchkit_npuzzle.rules.offer`):
        Manhattan distance or a pattern database, else None.  Built once per heuristic."""
        name = self.heuristic_name
        if getattr(self, "_rules_for", object()) != name:
            from .rules import offer

            self._rules, self._rules_for = offer(self), name
        return self._rules

    # -- heuristics -------------------------------------------------------------------------
    def manhattan_table(self) -> list[list[int]]:
        """``md[t][p]``: taxicab distance of tile t at cell p from its goal cell (0 for the blank)."""
        return self._taxicab_table(self.goal)

    def _taxicab_table(self, board: tuple[int, ...]) -> list[list[int]]:
        """``md[t][p]``: taxicab distance of tile t at cell p from its cell on ``board`` (0 for the blank)."""
        w = self.width
        where = [0] * self.n
        for p, t in enumerate(board):
            where[t] = p
        return [
            [0 if t == 0 else abs(p // w - where[t] // w) + abs(p % w - where[t] % w) for p in range(self.n)]
            for t in range(self.n)
        ]

    def use_heuristic(
        self,
        heuristic: Callable[[int], float] | None,
        incremental: Callable[[int, float], list] | None = None,
        admissible: bool = True,
    ) -> None:
        """Attach ``heuristic`` (and its incremental successor function, if any)."""
        self.heuristic = heuristic
        self.successors_with_h = incremental
        self.heuristic_admissible = admissible

    def moves_with_tile_delta(self, table: list[list[int]]) -> list[list[tuple]]:
        """Per blank cell: ``(action, p, bits * p, change, delta)`` where ``delta[t]`` is the
        change of ``table``'s sum when tile t slides from cell p into the blank's cell."""
        return [
            [
                (a, p, sp, change, [table[t][b] - table[t][p] for t in range(self.n)])
                for a, p, sp, change in self._moves[b]
            ]
            for b in range(self.n)
        ]
