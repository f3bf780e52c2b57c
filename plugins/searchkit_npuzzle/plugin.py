"""Registers the n-puzzle domain (and its fast IDA*, weighted IDA* and line-by-line engines) with searchkit."""

from searchkit import EngineInfo, EngineParam, hookimpl


@hookimpl
def register_domains(register):
    from .domain import NPuzzleDomain

    register(NPuzzleDomain())


@hookimpl
def register_engines(register):
    from .macros import AHEAD, npuzzle_fess
    from .stages import npuzzle_stages

    # a step that fails does not prove the board unsolvable (boards are checked before)
    register(
        EngineInfo(
            "npuzzle-stages",
            npuzzle_stages,
            "big boards one edge line at a time, small searches per tile (fast, suboptimal)",
            params={"weight": EngineParam("weight", 3.0, float, "each step's weighted-A* weight", minimum=1)},
            domains=("npuzzle",),
            complete=False,
        )
    )
    register(
        EngineInfo(
            "npuzzle-fess",
            npuzzle_fess,
            "FESS (the core fess engine) over tile macro moves, tiles placed in solving order (suboptimal)",
            params={
                "ahead": EngineParam(
                    "ahead", AHEAD, int, "the next tiles in solving order that macros slide", minimum=1
                ),
                "own_cells": EngineParam("own_cells", False, bool, "each board in its own features' cell"),
            },
            domains=("npuzzle",),
        )
    )
    try:
        from .fastida import WIDA_WEIGHT, npuzzle_idastar, npuzzle_wida, warm_up_kernel
    except ImportError:
        return
    register(
        EngineInfo(
            "npuzzle-idastar",
            npuzzle_idastar,
            "IDA* specialised for the n-puzzle (incremental heuristic, no move back)",
            heuristic="required",
            optimal="cost",
            warm_up=warm_up_kernel,
            domains=("npuzzle",),
        )
    )
    register(
        EngineInfo(
            "npuzzle-wida",
            npuzzle_wida,
            "weighted IDA* for the n-puzzle: bound on g + weight*h, at most weight x optimal",
            heuristic="required",
            optimal="cost",
            params={
                "weight": EngineParam("weight", WIDA_WEIGHT, float, "the starting weight", minimum=1),
                "max_weight": EngineParam(
                    "max_weight",
                    None,
                    float,
                    "raise the weight by 0.5 up to this when a search runs long",
                    minimum=1,
                    none="none (keep the weight)",
                ),
                "improve": EngineParam(
                    "improve",
                    False,
                    bool,
                    "with --timeout or --max-nodes: spend what is left on cheaper answers (lower weights,"
                    " the incumbent as a cap) and say how far from optimal the best is",
                    limited=True,
                ),
            },
            warm_up=warm_up_kernel,
            domains=("npuzzle",),
        )
    )


@hookimpl
def register_commands(cli):
    try:
        from .commands import add_commands
    except ImportError:
        return
    add_commands(cli)


@hookimpl
def register_games(register):
    from searchkit.play import Game

    from .game import NPuzzleGame
    from .play_command import play

    def picture_png(data: bytes | None, side: int) -> bytes:
        from .picture import picture_png

        return picture_png(data, side)

    summary = "the sliding-tile puzzle (3x3, 4x4, 5x5), numbers or a picture"
    register(Game("npuzzle", play, summary, session=NPuzzleGame, picture=picture_png))
