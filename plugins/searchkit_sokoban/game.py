"""Sokoban as a game: walking and pushing by direction, undo, deadlock notices, saving.

Moves are LURD letters as `lurd` writes them: lowercase walks, uppercase pushes, so the
solver's answer plays straight into the history.  Deadlock notices come from the plugin's
own detectors (dead squares, freeze, PI-corrals, and the matching bound that finds
bipartite deadlocks): when they fire, no sequence of pushes can solve the position.
Plain logic: the screen is `play_app`.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from typing import Any

from searchkit import InputError
from searchkit.play import GameSession, solve_moves

from .levels import BOX, BOX_GOAL, GOAL, PLAYER, PLAYER_GOAL, WALL, Level, parse_level

DELTA = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
KEY_TO_MOVE = {"up": "u", "down": "d", "left": "l", "right": "r"}


class SokobanGame(GameSession):
    """One level played from its start; ``source`` names the file or bundled set it came from."""

    domain = "sokoban"

    def __init__(self, level: Level, source: str = "", count: int = 1):
        super().__init__()
        self.level, self.source, self.count = level, source, count
        rows = level.rows
        self.height, self.width = len(rows), len(rows[0])
        cells = [(r, c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row)]
        self.walls = frozenset((r, c) for r, c, ch in cells if ch == WALL)
        self.goals = frozenset((r, c) for r, c, ch in cells if ch in (GOAL, BOX_GOAL, PLAYER_GOAL))
        self.start_boxes = frozenset((r, c) for r, c, ch in cells if ch in (BOX, BOX_GOAL))
        self.start_player = next((r, c) for r, c, ch in cells if ch in (PLAYER, PLAYER_GOAL))
        self.boxes = set(self.start_boxes)
        self.player = self.start_player
        self._detectors: Any = None

    # -- the rules ---------------------------------------------------------------------------
    def _free(self, square: tuple[int, int]) -> bool:
        r, c = square
        return 0 <= r < self.height and 0 <= c < self.width and square not in self.walls

    def apply(self, move: str) -> str | None:
        step = DELTA.get(move.lower()) if isinstance(move, str) and len(move) == 1 else None
        if step is None:
            return None
        nxt = (self.player[0] + step[0], self.player[1] + step[1])
        if not self._free(nxt):
            return None
        if nxt in self.boxes:
            beyond = (nxt[0] + step[0], nxt[1] + step[1])
            if not self._free(beyond) or beyond in self.boxes:
                return None
            self.boxes.remove(nxt)
            self.boxes.add(beyond)
            self.player = nxt
            return move.upper()
        self.player = nxt
        return move.lower()

    def revert(self, recorded: str) -> None:
        dr, dc = DELTA[recorded.lower()]
        r, c = self.player
        if recorded.isupper():
            self.boxes.remove((r + dr, c + dc))
            self.boxes.add((r, c))
        self.player = (r - dr, c - dc)

    def reset_position(self) -> None:
        self.boxes = set(self.start_boxes)
        self.player = self.start_player

    @property
    def solved(self) -> bool:
        return self.boxes == self.goals

    @property
    def pushes(self) -> int:
        return sum(1 for m in self.history if m.isupper())

    def rows(self) -> list[str]:
        """The current position in level-file characters."""
        out = []
        for r in range(self.height):
            line = []
            for c in range(self.width):
                sq = (r, c)
                goal = sq in self.goals
                if sq in self.walls:
                    line.append(WALL)
                elif sq in self.boxes:
                    line.append(BOX_GOAL if goal else BOX)
                elif sq == self.player:
                    line.append(PLAYER_GOAL if goal else PLAYER)
                else:
                    line.append(GOAL if goal else " ")
            out.append("".join(line))
        return out

    # -- deadlocks -------------------------------------------------------------------------------
    def _detector_state(self):
        if self._detectors is None:
            from .board import Board
            from .heuristics import MATCHING
            from .problem import SokobanProblem

            board = Board(self.level)
            self._detectors = (board, SokobanProblem(board, MATCHING))
        return self._detectors

    def deadlock(self) -> str | None:
        """Why the current position can never be solved, if a detector can tell; else None."""
        if self.solved:
            return None
        from .board import INF, flood
        from .corral import pi_corral_boxes
        from .deadlocks import freeze_deadlock

        board, problem = self._detector_state()
        w = board.width
        sq = {(r, c): r * w + c for r, c in self.boxes}
        boxes = sum(1 << s for s in sq.values()) & board.floor
        for (r, c), s in sq.items():
            if (r, c) not in self.goals and board.floor >> s & 1 and not board.live >> s & 1:
                return f"the box at row {r + 1}, column {c + 1} is on a square from which no push reaches a goal"
        if self.history and self.history[-1].isupper():
            dr, dc = DELTA[self.history[-1].lower()]
            pushed = (self.player[0] + dr) * w + self.player[1] + dc
            if freeze_deadlock(pushed, boxes, board):
                return "boxes are frozen in place with one off its goal"
        player = self.player[0] * w + self.player[1]
        reach = flood(1 << player, board.floor & ~boxes, w)
        if pi_corral_boxes(board, boxes, reach, True) == 0:
            return "the boxes wall off an area that no push can open"
        if problem.heuristic((boxes, player)) >= INF:
            return "the boxes can no longer all reach different goals"
        return None

    # -- saving ---------------------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        return {"source": self.source, "level": self.level.number, "title": self.level.title, "count": self.count}

    def start_json(self) -> list[str]:
        return list(self.level.rows)

    def current_json(self) -> list[str]:
        return self.rows()

    @classmethod
    def from_params(cls, params: dict[str, Any], start: Any) -> "SokobanGame":
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
