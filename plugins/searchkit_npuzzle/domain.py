"""The ``npuzzle`` domain: options, defaults and output for the sliding-tile puzzle."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from searchkit import Domain, Heuristic, InputError, Instance, Param, Result

from . import heuristics
from .board import (
    check_board,
    format_board,
    is_solvable,
    make_goal,
    parse_size,
    parse_tiles,
    random_board,
    scrambled_board,
)
from .problem import NPuzzleProblem

FAST_ENGINE = "npuzzle-idastar"
WIDA_ENGINE = "npuzzle-wida"
MAX_SCRAMBLE = 1_000_000  # a random walk mixes long before this; beyond it a user waits for nothing


class NPuzzleDomain(Domain[NPuzzleProblem]):
    name = "npuzzle"
    summary = "sliding-tile puzzle (8-, 15-, 24-puzzle and any WxH board)"
    params = [
        Param(
            "size", str, None, "board side, e.g. 4, or WxH for rectangles (default: from --board, else 3)", short="-n"
        ),
        Param("board", str, None, "start board, row-major, 0 = blank, e.g. '1 2 3 4 5 6 0 7 8'"),
        Param("goal", str, None, "goal: blank-last (default), blank-first (Korf) or the tiles"),
        Param("seed", int, None, "random seed for a generated board"),
        Param(
            "scramble",
            int,
            None,
            f"generate the board by this many random moves from the goal (at most {MAX_SCRAMBLE:,})",
        ),
        Param("boards", bool, False, "print every board of the solution", output=True),
        Param(
            "image",
            str,
            None,
            "picture to cut into tiles for --gif/--frames/--png (default: a built-in one)",
            output=True,
        ),
        Param("gif", str, None, "write an animated GIF of the solution to this file", output=True, writes=True),
        Param(
            "frames",
            str,
            None,
            "write the solution as numbered PNG frames into this directory",
            output=True,
            writes=True,
        ),
        Param("png", str, None, "write the start board as a picture to this PNG file", output=True, writes=True),
        Param("numbers", bool, False, "show tile numbers on the pictures", output=True),
    ]

    def builtin_heuristics(self) -> dict[str, Heuristic]:
        found = heuristics.builtin_heuristics()
        try:
            from .pdb import pdb_heuristics
        except ImportError:  # pattern databases need numpy; the rest works without
            return found
        found.update(pdb_heuristics())
        return found

    def defaults(self, options: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
        """Optimal up to 4x4; on 5x5 with pattern databases, compiled weighted IDA* (weight
        1.5: 1.16x optimal on Korf & Felner's 24-puzzles, each under a second), else
        weighted A* (weight 1.6: 1.18x); line by line beyond, where whole-board weighted A*
        stalls (configs/npuzzle24.toml, npuzzle-large.toml)."""
        from searchkit.plugins import engines

        width, height = self._size(options)
        if (width, height) == (4, 4):
            engine = FAST_ENGINE if FAST_ENGINE in engines() else "idastar"
            return engine, "pdb-663" if "pdb-663" in self.heuristics else "linear-conflict", {}
        if (width, height) == (5, 5) and "pdb-55554" in self.heuristics:
            from .compiled import compiled_kernel_available
            from .fastida import WIDA_MAX_WEIGHT, WIDA_WEIGHT

            if WIDA_ENGINE in engines() and compiled_kernel_available():
                return WIDA_ENGINE, "pdb-55554", {"weight": WIDA_WEIGHT, "max_weight": WIDA_MAX_WEIGHT, "improve": True}
            return "astar", "pdb-55554", {"weight": 1.6}
        if width * height > 25 and "npuzzle-stages" in engines():
            return "npuzzle-stages", None, {}
        if width * height > 16:
            return "astar", "linear-conflict", {"weight": 2 if width * height <= 25 else 5}
        return "astar", "linear-conflict", {}

    def check_instances(self) -> list[dict[str, Any]]:
        return [
            {"board": "1 2 3 4 0 6 7 5 8"},
            {"board": "4 1 3 7 2 6 0 5 8"},
            {"size": "3x2", "scramble": 9, "seed": 2},
            {"size": "2", "scramble": 5, "seed": 1},
        ]

    def default_cases(self) -> list[tuple[str, dict[str, Any]]]:
        return [
            ("3x3", {"size": "3"}),
            ("4x4", {"size": "4"}),
            ("5x5", {"size": "5"}),
            ("other boards up to 16 cells, e.g. 3x4", {"size": "3x4"}),
            ("other boards of 17 to 25 cells, e.g. 4x5", {"size": "4x5"}),
            ("more than 25 cells, e.g. 6x6", {"size": "6"}),
        ]

    def _size(self, options: dict[str, Any]) -> tuple[int, int]:
        board = options.get("board")
        return parse_size(options.get("size"), len(parse_tiles(board)) if board else None)

    def make_problem(self, options: dict[str, Any], heuristic: Heuristic | None) -> NPuzzleProblem:
        width, height = self._size(options)
        goal = make_goal(options.get("goal"), width, height)
        seed = options.get("seed")
        if options.get("board"):
            if options.get("scramble") is not None:
                raise InputError("give --board or --scramble, not both")
            if seed is not None:
                raise InputError("give --board or --seed, not both (--seed draws a random board)")
            start = parse_tiles(options["board"])
            check_board(start, width * height)
            if not is_solvable(start, goal, width):
                raise InputError(
                    "the board is unsolvable: its tile parity does not match the blank's distance to "
                    "its goal cell (no sequence of moves reaches the goal)"
                )
        else:
            if seed is None:
                seed = random.randrange(1_000_000)
            rng = random.Random(seed)
            scramble = options.get("scramble")
            if scramble is not None:
                if scramble < 0:
                    raise InputError(f"--scramble must not be negative (got {scramble})")
                if scramble > MAX_SCRAMBLE:
                    raise InputError(
                        f"--scramble must be at most {MAX_SCRAMBLE:,} (got {scramble}); "
                        "leave it out for a uniformly random board"
                    )
                start = scrambled_board(goal, width, height, scramble, rng)
            else:
                start = random_board(goal, width, rng)
        problem = NPuzzleProblem(width, height, start, goal, heuristic.name if heuristic else None)
        problem.seed = seed
        problem.pictures = None  # checked and loaded now, so a bad picture fails before the search
        if any(options.get(k) for k in ("image", "gif", "frames", "png", "numbers")):
            from .picture import prepare_outputs

            problem.pictures = prepare_outputs(options, width, height)
        if heuristic is not None:
            builtin = heuristics.BUILTIN.get(heuristic.name)
            if builtin is not None:
                builtin[0](problem)
            elif heuristic.make is None:  # another plugin's heuristic reaches the problem only through make
                raise InputError(f"heuristic {heuristic.name!r} has no make function: {self.name} cannot use it")
            else:
                fn = heuristic.make(problem)
                problem.use_heuristic(fn, getattr(fn, "successors_with_h", None), admissible=heuristic.admissible)
        return problem

    # -- output -----------------------------------------------------------------------------
    def state_json(self, problem: NPuzzleProblem, state: int) -> list[int]:
        return list(problem.decode(state))

    def describe_state(self, problem: NPuzzleProblem, state: int) -> str:
        return format_board(problem.decode(state), problem.width)

    @staticmethod
    def tiles_moved(problem: NPuzzleProblem, result: Result) -> list[int]:
        """The tile that slid at each step (the one the blank swapped with)."""
        tiles = []
        for before, after in zip(result.states, result.states[1:]):
            cell = after >> problem.top  # the blank's new cell held the tile that moved
            tiles.append((before >> (problem.bits * cell)) & problem.mask)
        return tiles

    def format_solution(self, problem: NPuzzleProblem, result: Result, options: dict[str, Any]) -> str:
        lines = [
            f"moves ({len(result.actions)}, the blank's direction): {''.join(result.actions) or '-'}",
            f"tiles moved: {' '.join(map(str, self.tiles_moved(problem, result))) or '-'}",
        ]
        if options.get("boards"):
            for i, (action, state) in enumerate(zip(result.actions, result.states[1:]), 1):
                lines.append(f"\n{i}. {action}\n{self.describe_state(problem, state)}")
        return "\n".join(lines)

    def solution_json(self, problem: NPuzzleProblem, result: Result, options: dict[str, Any]) -> dict[str, Any]:
        extra = {
            "width": problem.width,
            "height": problem.height,
            "goal": list(problem.goal),
            "seed": getattr(problem, "seed", None),
        }
        if result.solved:
            extra["moves"] = "".join(result.actions)
            extra["tiles"] = self.tiles_moved(problem, result)
        return extra

    def after_solve(self, problem: NPuzzleProblem, result: Result, options: dict[str, Any], echo) -> None:
        pictures = getattr(problem, "pictures", None)
        if pictures is not None:
            pictures.write(problem, result, echo)

    # -- benchmarks -------------------------------------------------------------------------
    def load_instances(self, source: str, base_dir: Path) -> list[Instance]:
        """``npuzzle:korf100``, ``npuzzle:korf24`` or a file with one board a line, optionally
        followed by its optimal length (``#`` starts a comment)."""
        if source.startswith("npuzzle:"):
            name = source.split(":", 1)[1]
            from .korf import BUNDLED

            if name not in BUNDLED:
                raise InputError(f"unknown bundled n-puzzle set {name!r} (known: {', '.join(BUNDLED)})")
            return [
                Instance(str(i), {"board": " ".join(map(str, board))}, length)
                for i, (board, length) in enumerate(BUNDLED[name](), 1)
            ]
        path = Path(source) if Path(source).is_absolute() else base_dir / source
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as e:
            raise InputError(f"cannot read instance file {path}: {e.strerror or e}") from None
        except UnicodeDecodeError as e:
            raise InputError(f"instance file {path} is not UTF-8 text (byte {e.start})") from None
        instances: list[Instance] = []
        for lineno, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            numbers = parse_tiles(line, f"line {lineno} of {path.name}")
            side = round(len(numbers) ** 0.5)
            if side * side == len(numbers):
                board, expected = numbers, None
            elif round((len(numbers) - 1) ** 0.5) ** 2 == len(numbers) - 1:
                board, expected = numbers[:-1], numbers[-1]
            else:
                raise InputError(
                    f"line {lineno} of {path.name}: {len(numbers)} numbers is neither a square board "
                    "nor a board and its length"
                )
            instances.append(Instance(str(len(instances) + 1), {"board": " ".join(map(str, board))}, expected))
        if not instances:
            raise InputError(f"{path} holds no boards")
        return instances
