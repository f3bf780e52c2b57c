"""Sokoban as a game: walking and pushing by direction, undo, deadlock notices, saving.

Moves are LURD letters as `lurd` writes them: lowercase walks, uppercase pushes, so the
solver's answer plays straight into the history.  A move is `rules.step` (not strict
about case: a box ahead is pushed and recorded in capitals).  Deadlock notices are the
search's own pruning (`deadlocks.Pruning.dead_end`, with the matching bound that finds
bipartite deadlocks): a notice fires exactly when the search would prune the position,
and then no sequence of pushes can solve it.  Plain logic: the screen is `play_app`.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from typing import Any

from searchkit import InputError
from searchkit.play import GameSession, solve_moves

from .board import DIRS, Layout
from .levels import Level, parse_level
from .rules import Step, step, unstep

KEY_TO_MOVE = {"up": "u", "down": "d", "left": "l", "right": "r"}


class SokobanGame(GameSession):
    """One level played from its start; ``source`` names the file or bundled set it came from.

    ``disabled``: deadlock detectors the notices leave out, as ``--no-deadlock`` names them.
    The position is ``box_bits`` and ``square`` (square numbers, as `Layout` has them);
    ``boxes`` and ``player`` give it as ``(row, column)`` squares.
    """

    domain = "sokoban"

    def __init__(self, level: Level, source: str = "", count: int = 1, disabled: frozenset = frozenset()):
        super().__init__()
        self.level, self.source, self.count = level, source, count
        self.disabled = frozenset(disabled)
        self.layout = lay = Layout.of(level)
        self.height, self.width = lay.height, lay.width
        self.box_bits, self.square = lay.boxes, lay.player
        self._pruning: Any = None

    @property
    def boxes(self) -> frozenset[tuple[int, int]]:
        return self.layout.cells(self.box_bits)

    @property
    def player(self) -> tuple[int, int]:
        return self.layout.cell(self.square)

    # -- the rules ---------------------------------------------------------------------------
    def apply(self, move: str) -> str | None:
        moved = step(self.layout, self.box_bits, self.square, move, strict=False)
        if not isinstance(moved, Step):
            return None
        self.box_bits, self.square = moved.boxes, moved.player
        return move.upper() if moved.pushed else move.lower()

    def revert(self, recorded: str) -> None:
        self.box_bits, self.square = unstep(self.layout, self.box_bits, self.square, recorded)

    def reset_position(self) -> None:
        self.box_bits, self.square = self.layout.boxes, self.layout.player

    @property
    def solved(self) -> bool:
        return self.box_bits == self.layout.goals

    @property
    def pushes(self) -> int:
        return sum(1 for m in self.history if m.isupper())

    def rows(self) -> list[str]:
        """The current position in level-file characters."""
        return self.layout.rows(self.box_bits, self.square)

    # -- deadlocks -------------------------------------------------------------------------------
    def pruning(self):
        """The search's pruning on this level (built on first use): the detectors the
        matching-guided search prunes with, less ``disabled``."""
        if self._pruning is None:
            from .board import Board
            from .heuristics import MATCHING
            from .problem import SokobanProblem

            # with the cluster proofs, which cost a search too much (`cluster`) but not a move
            self._pruning = SokobanProblem(Board(self.level), MATCHING, self.disabled, clusters=True).pruning
        return self._pruning

    def deadlock(self) -> str | None:
        """Why the current position can never be solved, if a detector can tell (the
        detector named in brackets); else None.  After a push, the pushed box is checked
        as the search checks it; otherwise every box."""
        if self.solved:
            return None
        pruning = self.pruning()
        pushed = None
        if self.history and self.history[-1].isupper():
            pushed = self.square + self.layout.offsets[DIRS.index(self.history[-1].lower())]
        dead = pruning.dead_end(self.box_bits & pruning.board.floor, self.square, pushed)
        return None if dead is None else str(dead)

    # -- saving ---------------------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        return {"source": self.source, "level": self.level.number, "title": self.level.title, "count": self.count}

    def start_json(self) -> list[str]:
        return list(self.level.rows)

    def current_json(self) -> list[str]:
        return self.rows()

    @classmethod
    def from_params(cls, params: dict[str, Any], start: Any) -> SokobanGame:
        if not isinstance(start, list) or not start or not all(isinstance(r, str) for r in start):
            raise InputError("the start position is not a list of board rows")
        level = parse_level("\n".join(start) + "\n", "the saved level")
        number, title, count = params.get("level", 1), params.get("title"), params.get("count", 1)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise InputError(f"the level number must be a whole number from 1 (got {number!r})")
        if isinstance(count, bool) or not isinstance(count, int) or count < number:
            count = number
        source = params.get("source")
        level = dataclasses.replace(level, number=number, title=title if isinstance(title, str) else None)
        return cls(level, source if isinstance(source, str) else "", count)

    # -- the solver ------------------------------------------------------------------------------
    def solve_task(self):
        """The domain's default search (good, not optimal) from the current position; the
        push plan comes back as LURD letters, walks included."""
        text = "\n".join(r.rstrip() for r in self.rows()) + "\n"
        key = self.position_key()

        def to_moves(job, result) -> list[str]:
            from .lurd import to_lurd

            return list(to_lurd(job.problem.board, result.actions))

        def task(limits, observer):
            fd, path = tempfile.mkstemp(prefix="searchkit-play-", suffix=".sok")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                return solve_moves("sokoban", {"level_file": path}, to_moves, key)(limits, observer)
            finally:
                os.unlink(path)

        return task


def collection_levels(source: str) -> list[Level] | None:
    """The levels of a saved game's collection, when it can still be read."""
    if not source:
        return None
    from .levels import read_source

    try:
        return read_source(source)[0]
    except InputError:
        return None
