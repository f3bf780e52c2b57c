"""The hooks a searchkit plugin can implement (decorate them with `searchkit.hookimpl`)."""

from collections.abc import Callable
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("searchkit")
hookimpl = pluggy.HookimplMarker("searchkit")


@hookspec
def register_domains(register: Callable[[Any], None]) -> None:
    """Register domains: call ``register(domain)`` with `searchkit.Domain` instances."""


@hookspec
def register_engines(register: Callable[[Any], None]) -> None:
    """Register engines: call ``register(info)`` with `searchkit.EngineInfo` objects."""


@hookspec
def register_heuristics(register: Callable[[str, Any], None]) -> None:
    """Add heuristics to existing domains: ``register("npuzzle", Heuristic(...))``."""


@hookspec
def register_commands(cli: Any) -> None:
    """Add sub-commands to the ``searchkit`` typer app (e.g. ``searchkit npuzzle ...``)."""


@hookspec
def register_games(register: Callable[[Any], None]) -> None:
    """Register playable games: call ``register(game)`` with `searchkit.play.Game` objects."""
