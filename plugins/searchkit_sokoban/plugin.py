"""Registers with searchkit the sokoban domain, its engines, the ``searchkit sokoban`` level
commands (`level_commands`) and the game (``searchkit play sokoban``, `play_command`)."""

from searchkit import hookimpl


@hookimpl
def register_domains(register):
    from .domain import SokobanDomain

    register(SokobanDomain())


@hookimpl
def register_commands(cli):
    from .level_commands import app

    cli.add_typer(app, name="sokoban")


@hookimpl
def register_engines(register):
    from searchkit import EngineInfo, EngineParam, check_portfolio, describe_members

    from . import engines as e
    from .aim import AIM_SECONDS, AIMS, BOTH, EARLY_POSITIONS, OPEN_POSITIONS, sokoban_fess_aim
    from .compiled_pull import sokoban_pull_compiled
    from .compiled_pull import warm_up as warm_up_pull
    from .compiled_search import TIES as COMPILED_TIES
    from .compiled_search import sokoban_compiled
    from .compiled_search import warm_up as warm_up_compiled
    from .fess import sokoban_fess
    from .fess_pull import sokoban_fess_pull

    def endgame_param(default: bool) -> EngineParam:
        return EngineParam(
            "endgame",
            default,
            bool,
            "positions a box or two short of the goals (or the aim) tried with a compiled A* onto them (needs numba)",
        )

    register(
        EngineInfo(
            "sokoban-portfolio",
            e.sokoban_portfolio,
            f"Sokoban (default): the core portfolio, the first member alone for {e.PORTFOLIO_SOLO:g} s: "
            + describe_members(e.PORTFOLIO_MEMBERS, e.MEMBER_WORDS),
            heuristic="used",
            domains=("sokoban",),
            warm_up=e.warm_up,
            validate=check_portfolio,
            params={
                "members": EngineParam(
                    "members",
                    e.PORTFOLIO_MEMBERS,
                    str,
                    "comma list of searches: ORDER[:HEURISTIC], backward:pull (or pull-nearest-goal,"
                    " pull-matching, pull-explore, pull-packing), search:fess, search:fess-own, search:fess-stranded,"
                    " search:fess-pull, search:fess-aim, search:fess-aim-near, search:fess-aim-far, search:compiled,"
                    " search:pull-compiled or search:pull-nearest-goal-compiled"
                    " (@T: joins after T s, <U: stops after U s, *W: a share of W of the time, 1 without)",
                ),
                "shares": EngineParam(
                    "shares",
                    e.PORTFOLIO_SHARES,
                    str,
                    "CPU shares, one positive number per search (default: each search's *W, or 1)",
                ),
                "solo": EngineParam(
                    "solo", e.PORTFOLIO_SOLO, float, "CPU seconds the first search runs alone", minimum=0
                ),
                "meet": EngineParam(
                    "meet", e.PORTFOLIO_MEET, bool, "forward searches and the pull search answer together on meeting"
                ),
                "lead": EngineParam(
                    "lead",
                    e.PORTFOLIO_LEAD,
                    float,
                    "share multiplier for the FESS search packing well more goals than the others (1: off)",
                    minimum=1,
                ),
            },
        )
    )
    register(
        EngineInfo(
            "sokoban-alternation",
            e.sokoban_alternation,
            "Sokoban: the core alternation: one greedy search, an open list per guide taking turns",
            heuristic="used",
            domains=("sokoban",),
            warm_up=e.warm_up_matching,
            params={
                "guides": EngineParam(
                    "guides", e.ALTERNATION_GUIDES, str, "comma list of matching, nearest-goal, packing"
                )
            },
        )
    )
    register(
        EngineInfo(
            "sokoban-fess",
            sokoban_fess,
            "Sokoban: FESS-style feature-space search over macro moves (one box to any square it reaches),"
            " advisors' moves first, for large levels",
            heuristic="used",
            domains=("sokoban",),
            warm_up=e.warm_up,
            params={
                "own_cells": EngineParam(
                    "own_cells",
                    False,
                    bool,
                    "file each position in its own features' cell, not in the best one met on its way",
                ),
                "stranded": EngineParam(
                    "stranded",
                    False,
                    bool,
                    "count as out of plan the empty goals no box off goals reaches while the boxes on goals stay",
                ),
                "any_order": EngineParam(
                    "any_order",
                    False,
                    bool,
                    "count boxes on goals packed in any order, not the packing order's (best with stranded)",
                ),
                "parking": EngineParam(
                    "parking",
                    False,
                    bool,
                    "pack by a parking plan where boxes must wait inside the goal area (Festival's packing search)",
                ),
                "endgame": endgame_param(False),
            },
        )
    )
    register(
        EngineInfo(
            "sokoban-compiled",
            sokoban_compiled,
            "Sokoban: A* on the matching bound over single pushes in compiled code (numba: searchkit[fast]),"
            " about ten times the expansions a second; push-optimal at weight 1",
            optimal="cost",
            domains=("sokoban",),
            warm_up=warm_up_compiled,
            optimal_if=lambda params: params.get("weight", 1.0) == 1.0,
            params={
                "weight": EngineParam("weight", 1.0, float, "weight of the bound (> 1: weighted A*)", minimum=1),
                "ties": EngineParam(
                    "ties",
                    COMPILED_TIES,
                    str,
                    "which of the positions of equal f and h goes first: the newest or the oldest",
                    choices=("newest", "oldest"),
                ),
            },
        )
    )
    register(
        EngineInfo(
            "sokoban-pull-compiled",
            sokoban_pull_compiled,
            "Sokoban: the greedy pull search (nearest start square and matching in turns) in compiled code"
            " (numba: searchkit[fast]), from the solved position back to the start",
            domains=("sokoban",),
            warm_up=warm_up_pull,
        )
    )
    register(
        EngineInfo(
            "sokoban-fess-pull",
            sokoban_fess_pull,
            "Sokoban: the FESS search backwards, over macro pulls from the solved position to the start",
            domains=("sokoban",),
            warm_up=e.warm_up,
        )
    )
    register(
        EngineInfo(
            "sokoban-fess-aim",
            sokoban_fess_aim,
            "Sokoban: FESS backwards to open positions (boxes off the goals, the floor in one piece), then FESS"
            " forwards aimed at the one nearest the start and the one farthest from the goals in turns, answering"
            " where one meets a position stored backwards",
            domains=("sokoban",),
            warm_up=e.warm_up,
            params={
                "open_positions": EngineParam(
                    "open_positions",
                    None,
                    int,
                    "positions the backward search stores before the forward one sets out (and again before each"
                    " next aim), one forward search a ranking",
                    minimum=0,
                    none=f"unset: nearest the start after {OPEN_POSITIONS:,}, farthest from the goals after"
                    f" {EARLY_POSITIONS:,} and {OPEN_POSITIONS:,}",
                ),
                "aim_seconds": EngineParam(
                    "aim_seconds",
                    AIM_SECONDS,
                    float,
                    "CPU seconds of the forward search per aim before the backward one goes on (0: till it runs out)",
                    minimum=0,
                ),
                "aims": EngineParam(
                    "aims",
                    BOTH,
                    str,
                    "which open positions: nearest the start (near), farthest from the goals (far) or both in turns",
                    choices=AIMS,
                ),
                "ordered": EngineParam(
                    "ordered",
                    False,
                    bool,
                    "the forward searches fill their aim's squares in a packing order (as the goals), not in any order",
                ),
                "endgame": endgame_param(True),
            },
        )
    )


@hookimpl
def register_games(register):
    from searchkit.play import Game

    from .levels import BUNDLED
    from .play_command import play
    from .web import SokobanWebGame

    summary = f"Sokoban levels (a file or a bundled set: {', '.join(BUNDLED)}), with deadlock notices"
    register(Game("sokoban", play, summary, session=SokobanWebGame))
