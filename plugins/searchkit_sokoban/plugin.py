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

    from .portfolio import DEFAULT_GUIDES, portfolio

    register(EngineInfo("sokoban-portfolio", portfolio,
                        "Sokoban: one greedy search, an open list per guide (matching, nearest-goal, packing)"
                        " taking turns", heuristic="used", params={"guides": DEFAULT_GUIDES}))

    from .alternate import DEFAULT_GUIDES as ALT_GUIDES
    from .alternate import DEFAULT_SHARES, DEFAULT_SOLO, alternate, warm_up

    register(EngineInfo("sokoban-alternate", alternate,
                        "Sokoban (default): greedy nearest-goal forwards alone for a start, then in turns with"
                        " a greedy pull search backwards (others: --param guides=...)",
                        heuristic="used", params={"guides": ALT_GUIDES, "shares": DEFAULT_SHARES, "solo": DEFAULT_SOLO},
                        warm_up=warm_up))


@hookimpl
def register_games(register):
    from searchkit.play import Game

    from .play_command import play

    register(Game("sokoban", play, "Sokoban levels (a file or bundled Microban), with deadlock notices"))
