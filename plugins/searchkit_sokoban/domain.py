"""The `sokoban` domain: levels in, verified LURD solutions out."""

from __future__ import annotations

import dataclasses
import math
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from searchkit import Domain, Heuristic, InputError, Instance, Observer, Param

from .aim import BOTH, FAR, FESS_AIM, FESS_AIM_FAR, FESS_AIM_NEAR, NEAR, AimLanes, AimSearch, aimed_search
from .board import Board
from .compiled_pull import COMPILED_PULLS, MEMBER_STATES, CompiledPullSearch
from .compiled_search import COMPILED, MEMBER_WEIGHT, CompiledPushSearch, compiled_available
from .deadlocks import DETECTORS, parse_disabled
from .fess import (
    FESS,
    FESS_OWN,
    FESS_STRANDED,
    STRANDED_ENDGAME_SHARE,
    STRANDED_ENDGAME_SLACK,
    FeatureSearch,
    FessSearch,
)
from .fess_pull import FESS_PULL, PullFessSearch
from .gateway import GATEWAY_BUDGET
from .heuristics import MATCHING, NEAREST, PACKING
from .levels import BUNDLED, Level, load_level, read_source
from .lurd import replay_lurd, to_lurd
from .optimizer import Counts, auto_seconds, finish, parse_solution
from .problem import SokobanProblem
from .pull import PULL_GUIDES, PullProblem

OPTIMIZE = ("pushes", "moves")
IMPROVE_MARGIN_S = 0.2  # of a run's timeout left for the replay and the output after the optimizer


def improve_seconds(options: dict[str, Any]) -> float | None:
    """``--improve-time`` checked: seconds, 0 or more (None: the level's default)."""
    value = options.get("improve_time")
    if value is None:
        return None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = math.nan
    if isinstance(value, bool) or not (math.isfinite(seconds) and seconds >= 0):
        raise InputError(f"--improve-time must be a number of seconds, 0 or more (got {value!r})")
    return seconds


class SokobanDomain(Domain[SokobanProblem]):
    name = "sokoban"
    summary = f"Sokoban levels (standard text format; bundled: {', '.join(BUNDLED)}): push search with deadlock pruning"
    params = [
        Param(
            "level_file",
            str,
            None,
            argument=True,
            help="level file (one level or a collection) or a bundled set, e.g. microban:11 or levels.txt:3",
        ),
        Param("level", str, None, help="which level of a collection: its number (1-based) or title"),
        Param("optimize", str, "pushes", help="cost to minimise: pushes, or moves (walk steps + pushes)"),
        Param("optimal", bool, False, help="A* with an admissible heuristic: push-optimal (or move-optimal) answers"),
        Param(
            "improve_time",
            float,
            None,
            help="seconds to shorten the solution found (default: 1 s and more for larger levels; within --timeout)",
            output=True,
        ),
        Param("no_improve", bool, False, help="print the solution as found, without the optimizer's pass", output=True),
        Param("no_deadlock", str, None, help=f"turn detectors off, comma list: {','.join(DETECTORS)} or all"),
        Param(
            "cluster_deadlocks",
            bool,
            False,
            help="searches prune cluster deadlocks too (boxes that cannot all reach goals even alone; slower)",
        ),
        Param("boards", bool, False, help="print the board after every push", output=True),
        Param("gif", str, None, help="write an animated GIF of the solution to this file", output=True, writes=True),
        Param(
            "png", str, None, help="write the start position as a picture to this PNG file", output=True, writes=True
        ),
        Param(
            "frames",
            str,
            None,
            help="write the solution as numbered PNG frames into this directory",
            output=True,
            writes=True,
        ),
        Param("frames_per", str, "push", help="pictures: one frame per push (default) or per move", output=True),
    ]

    def builtin_heuristics(self) -> dict[str, Heuristic]:
        return {
            MATCHING: Heuristic(
                MATCHING,
                summary="minimum-cost perfect matching of boxes to goals on push distances (no matching = deadlock)",
            ),
            NEAREST: Heuristic(NEAREST, summary="sum of each box's push distance to its nearest goal"),
            PACKING: Heuristic(
                PACKING,
                admissible=False,
                summary="nearest-goal that fills goal rooms in packing order, layer by layer (for greedy search)",
            ),
        }

    def defaults(self, options: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
        """``sokoban-portfolio``: greedy nearest-goal forwards (tunnel and goal-room macros)
        for 0.5 CPU seconds, then in turns with a greedy pull search backwards from the
        solved position (aimed at the gateway past a cramped start): all 155 Microban levels
        in 10 s (forwards alone 152).
        ``--optimal`` runs A* on the matching bound (push- or move-optimal)."""
        if options.get("optimal"):
            return "astar", MATCHING, {}
        return "sokoban-portfolio", NEAREST, {}

    def check_instances(self) -> list[dict[str, Any]]:
        return [{"level_file": "microban:1"}, {"level_file": "microban:2"}, {"level_file": "microban:4"}]

    def default_cases(self) -> list[tuple[str, dict[str, Any]]]:
        return [("", {}), ("--optimal", {"optimal": True})]

    # -- problems ---------------------------------------------------------------------------
    def level_of(self, options: dict[str, Any]) -> Level:
        source = options.get("level_file")
        if not source:
            raise InputError("give a level file or a bundled name, e.g. microban:11")
        return load_level(str(source), options.get("level"))

    def make_problem(self, options: dict[str, Any], heuristic: Heuristic | None) -> SokobanProblem:
        optimize = str(options.get("optimize") or "pushes").lower()
        if optimize not in OPTIMIZE:
            raise InputError(f"--optimize must be one of {', '.join(OPTIMIZE)} (got {optimize!r})")
        disabled = parse_disabled(options.get("no_deadlock"))
        improve_seconds(options)  # a bad value fails now, not after the search
        if any(options.get(k) for k in ("gif", "png", "frames")) or (options.get("frames_per") or "push") != "push":
            from .picture import check_options

            check_options(options)  # a bad picture path fails now, not after the search
        board = Board(self.level_of(options))
        # tunnel and goal-room macros skip states and make steps of several pushes: only for
        # guided searches without the push-optimality promise of --optimal (breadth-first, too)
        tunnels = not options.get("optimal")
        # cluster proofs: off unless asked for (they cost the bundled sets more than they save)
        clusters = bool(options.get("cluster_deadlocks"))

        def build(h: Heuristic | None) -> SokobanProblem:
            if h is None:
                return SokobanProblem(board, None, disabled, optimize, clusters=clusters)
            if h.name in (MATCHING, NEAREST):
                return SokobanProblem(
                    board, h.name, disabled, optimize, tunnels=tunnels, goalroom=tunnels, clusters=clusters
                )
            if h.name == PACKING:
                return SokobanProblem(
                    board, NEAREST, disabled, optimize, packing=True, tunnels=tunnels, clusters=clusters
                )
            if h.make is None:  # another plugin's heuristic reaches the problem only through make
                raise InputError(f"heuristic {h.name!r} has no make function: {self.name} cannot use it")
            problem = SokobanProblem(board, NEAREST, disabled, optimize, tunnels=tunnels, clusters=clusters)
            problem.use_foreign_heuristic(h.make(problem))
            return problem

        def variant(name: str) -> SokobanProblem | PullProblem | None:
            """The level guided by another heuristic (for composite engines), or ``pull``:
            the level read backwards for a backward search (pushes mode only, else None),
            guided by nearest-goal and matching to the start squares in turns
            (``pull-nearest-goal``, ``pull-matching``: one of them alone; ``pull-explore``:
            both and type-based exploration; ``pull-packing``: both and the start order)."""
            if name in PULL_GUIDES:
                return None if optimize == "moves" else PullProblem(main, GATEWAY_BUDGET, PULL_GUIDES[name])
            if name not in self.heuristics:
                raise InputError(
                    f"unknown heuristic {name!r} for sokoban (known: {', '.join(self.heuristics)},"
                    f" or {', '.join(PULL_GUIDES)} for a backward search)"
                )
            return main if heuristic is not None and name == heuristic.name else build(self.heuristics[name])

        searches: tuple[str, ...] = (FESS, FESS_OWN, FESS_STRANDED, FESS_PULL, FESS_AIM, FESS_AIM_NEAR, FESS_AIM_FAR)
        searches += (COMPILED, *COMPILED_PULLS)
        aimed = {FESS_AIM: BOTH, FESS_AIM_NEAR: NEAR, FESS_AIM_FAR: FAR}

        def member_search(
            name: str, observer: Observer | None = None
        ) -> FeatureSearch | AimSearch | AimLanes | CompiledPushSearch | CompiledPullSearch | None:
            """A search of the plugin's own for the core's portfolio: ``search:fess``, FESS on
            the nearest-goal guide (``search:fess-own``: each position in its own features'
            cell; ``search:fess-stranded``: stranded goals out of plan, with the endgame and
            the parking plan),
            ``search:fess-pull``, FESS backwards, or ``search:fess-aim``, FESS forwards aimed
            at open positions FESS backwards found (``search:fess-aim-near``: only those
            nearest the start, ``search:fess-aim-far``: only those farthest from the goals), or
            ``search:compiled``, weighted A* in compiled code (`compiled_search`), or
            ``search:pull-compiled``, the greedy pull search in compiled code (`compiled_pull`;
            ``search:pull-nearest-goal-compiled``: on nearest-goal alone); None
            where it cannot run (moves, a level beyond its size, no numba)."""
            if name not in searches:
                raise InputError(f"unknown search {name!r} for sokoban (known: {', '.join(searches)})")
            if optimize == "moves":
                return None
            try:
                if name == FESS_PULL:
                    return PullFessSearch(main, name=FESS_PULL, observer=observer)
                if (name == COMPILED or name in COMPILED_PULLS) and not compiled_available():
                    return None
                if name == COMPILED:
                    return CompiledPushSearch(main, weight=MEMBER_WEIGHT, name=COMPILED, observer=observer)
                if name in COMPILED_PULLS:
                    lists = COMPILED_PULLS[name]
                    return CompiledPullSearch(main, lists=lists, name=name, observer=observer, max_states=MEMBER_STATES)
                guided = variant(NEAREST)
                assert isinstance(guided, SokobanProblem)
                if name in aimed:
                    return aimed_search(guided, aimed[name], name=name, observer=observer)
                # with the endgame (a small share, four boxes short: `STRANDED_ENDGAME_*`) and a parking plan
                stranded = name == FESS_STRANDED
                return FessSearch(
                    guided,
                    name=name,
                    observer=observer,
                    own_cells=name == FESS_OWN,
                    stranded=stranded,
                    endgame=stranded,
                    endgame_share=STRANDED_ENDGAME_SHARE,
                    endgame_slack=STRANDED_ENDGAME_SLACK,
                    parking=stranded,
                )
            except InputError:
                return None

        main = build(heuristic)
        main.variant = variant
        main.member_search = member_search
        main.variant_names = (*self.heuristics, *PULL_GUIDES)  # what they take: the portfolio checks first
        main.search_names = searches
        return main

    # -- output -------------------------------------------------------------------------------
    def after_solve(self, problem: SokobanProblem, result, options: dict[str, Any], echo) -> None:
        if any(options.get(k) for k in ("gif", "png", "frames")):
            from .picture import write_outputs

            write_outputs(problem.board.level, self._lurd(problem, result), options, echo)

    def improve(
        self,
        problem: SokobanProblem,
        result,
        options: dict[str, Any],
        seconds_left: float | None,
        stop: threading.Event | None = None,
    ):
        """The optimizer's pass (`optimizer`) over the solution found, in the run's metric
        (pushes then moves, or moves then pushes); ``result`` itself when it is off."""
        if options.get("no_improve"):
            return result
        board = problem.board
        lurd = self._lurd(problem, result)
        if not lurd:
            return result
        pushes = parse_solution(board, lurd)
        seconds = improve_seconds(options)
        if seconds is None:
            seconds = auto_seconds(board, len(pushes))
        if seconds_left is not None:
            seconds = min(seconds, seconds_left - IMPROVE_MARGIN_S)
        found = replay_lurd(board.level, lurd)
        metric = "moves" if problem.moves else "pushes"
        done = finish(
            board, pushes, Counts(found.moves, found.pushes), max(0.0, seconds), metric, stop=stop, given=lurd
        )
        states = [problem.initial_state()]
        boxes, offs = board.start_boxes, board.offsets
        for p in done.pushes_list:
            boxes = boxes ^ (1 << p.square) ^ (1 << (p.square + offs[p.direction]))
            states.append((boxes, problem._normal(boxes, p.square)))
        cost = done.moves if problem.moves else done.pushes
        better = dataclasses.replace(result, actions=list(done.pushes_list), states=states, cost=cost)
        better._sokoban_lurd = done.lurd
        better._sokoban_found = (found.moves, found.pushes, done.seconds)
        return better

    def _lurd(self, problem: SokobanProblem, result) -> str:
        cached = getattr(result, "_sokoban_lurd", None)
        if cached is None:
            cached = to_lurd(problem.board, result.actions)
            result._sokoban_lurd = cached
        return cached

    def replay(self, problem: SokobanProblem, result) -> None:
        """Replay the LURD on the level's own text; counts must match the search's cost."""
        lurd = self._lurd(problem, result)
        done = replay_lurd(problem.board.level, lurd)
        pushes = sum(getattr(a, "count", 1) for a in result.actions)  # a tunnel macro is several
        if done.pushes != pushes:
            raise AssertionError(f"replay made {done.pushes} pushes, the search {pushes}")
        expected = done.moves if problem.moves else done.pushes
        if result.cost is not None and result.cost != expected:
            raise AssertionError(f"the search reports cost {result.cost}, the replay {expected}")

    def format_solution(self, problem: SokobanProblem, result, options: dict[str, Any]) -> str:
        lurd = self._lurd(problem, result)
        done = replay_lurd(problem.board.level, lurd, keep_boards=bool(options.get("boards")))
        lines = [lurd or "(already solved: no moves)", f"moves: {done.moves}  pushes: {done.pushes}"]
        found = getattr(result, "_sokoban_found", None)
        if found is not None:
            lines[-1] += f"  (found: moves {found[0]}  pushes {found[1]}; improved in {found[2]:.1f} s)"
        if options.get("boards"):
            for i, board in enumerate(done.boards):
                lines.append("")
                lines.append("start:" if i == 0 else f"after push {i}:")
                lines.extend(board)
        return "\n".join(lines)

    def solution_json(self, problem: SokobanProblem, result, options: dict[str, Any]) -> dict[str, Any]:
        level = problem.board.level
        out: dict[str, Any] = {"level": level.label, "start": list(level.text().splitlines())}
        if result.solved:
            lurd = self._lurd(problem, result)
            done = replay_lurd(level, lurd, keep_boards=bool(options.get("boards")))
            out.update(lurd=lurd, moves=done.moves, pushes=done.pushes)
            found = getattr(result, "_sokoban_found", None)
            if found is not None:
                out.update(found_moves=found[0], found_pushes=found[1], improve_s=round(found[2], 3))
                out["found_cost"] = found[0] if problem.moves else found[1]
            if options.get("boards"):
                out["boards"] = done.boards
        return out

    def state_json(self, problem: SokobanProblem, state: Any) -> Any:
        return problem.board.render(state[0], state[1])

    def describe_state(self, problem: SokobanProblem, state: Any) -> str:
        return problem.describe(state)

    def describe_reached(self, problem: SokobanProblem, state: Any, action: Any) -> str:
        # the state keeps only the player's region: show where the push left the player, and
        # the start where the level puts the player
        from .picture import reached_board

        if not isinstance(problem, SokobanProblem):  # a pull search's problem
            return self.describe_state(problem, state)
        if action is None and state == problem.initial_state():
            return self.describe_start(problem)
        board = reached_board(problem, state, action)
        return self.describe_state(problem, state) if board is None else board

    def describe_start(self, problem: SokobanProblem) -> str:
        # the state keeps only the player's region: show where the player really stands
        return problem.board.level.text().rstrip("\n")

    # -- benchmarks ---------------------------------------------------------------------------
    def load_instances(self, source: str, base_dir: Path) -> list[Instance]:
        """One instance per level of a file or bundled set (``microban``, ``microban:11``)."""
        levels, picked, _label = read_source(source, base_dir)
        base = source[: -len(picked) - 1] if picked is not None else source  # less ":N" (a path may hold ":")
        path = Path(base)
        if not path.is_absolute() and (base_dir / path).exists():
            base = str((base_dir / path).resolve())
        if picked is not None:
            from .levels import select

            levels = [select(levels, picked, base)]
        # results are keyed by name: a title another level has (a level titled "11" beside an
        # untitled eleventh) gets its number too
        labels = Counter(lv.label for lv in levels)
        return [
            Instance(
                name=lv.label if labels[lv.label] == 1 else f"{lv.label} (#{lv.number})",
                options={"level_file": base, "level": str(lv.number)},
            )
            for lv in levels
        ]
