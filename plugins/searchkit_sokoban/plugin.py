"""Registers the sokoban domain and the ``searchkit sokoban`` commands with searchkit."""

from searchkit import hookimpl


@hookimpl
def register_domains(register):
    from .domain import SokobanDomain

    register(SokobanDomain())


@hookimpl
def register_commands(cli):
    from .commands import app

    cli.add_typer(app, name="sokoban")


@hookimpl
def register_engines(register):
    from searchkit import EngineInfo

    from .portfolio import FIRST_BUDGET, portfolio

    register(EngineInfo("sokoban-portfolio", portfolio,
                        "Sokoban: greedy on nearest-goal and on matching in turns, doubling budgets",
                        heuristic="used", params={"budget": FIRST_BUDGET}))


@hookimpl
def register_games(register):
    from searchkit.play import Game

    from .play_command import play

    register(Game("sokoban", play, "Sokoban levels (a file or bundled Microban), with deadlock notices"))
