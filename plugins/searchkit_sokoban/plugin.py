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
    from searchkit import EngineInfo, EngineParam

    from .portfolio import DEFAULT_GUIDES, portfolio

    register(EngineInfo("sokoban-portfolio", portfolio,
                        "Sokoban: one greedy search, an open list per guide (matching, nearest-goal, packing)"
                        " taking turns", heuristic="used", domains=("sokoban",),
                        params={"guides": EngineParam("guides", DEFAULT_GUIDES, str,
                                                      "comma list of matching, nearest-goal, packing")}))

    from .alternate import DEFAULT_GUIDES as ALT_GUIDES
    from .alternate import DEFAULT_SHARES, DEFAULT_SOLO, alternate, warm_up

    register(EngineInfo("sokoban-alternate", alternate,
                        "Sokoban (default): greedy nearest-goal forwards alone for a start, then in turns with"
                        " a greedy pull search backwards (others: --param guides=...)",
                        heuristic="used", domains=("sokoban",), warm_up=warm_up,
                        params={"guides": EngineParam("guides", ALT_GUIDES, str, "comma list of searches: pull,"
                                                      " nearest-goal, matching, greedy:H or astar:H"),
                                "shares": EngineParam("shares", DEFAULT_SHARES, str, "CPU shares, one positive"
                                                      " number per search"),
                                "solo": EngineParam("solo", DEFAULT_SOLO, float, "CPU seconds the first search"
                                                    " runs alone", minimum=0)}))


@hookimpl
def register_games(register):
    from searchkit.play import Game

    from .play_command import play

    register(Game("sokoban", play, "Sokoban levels (a file or bundled Microban), with deadlock notices"))
