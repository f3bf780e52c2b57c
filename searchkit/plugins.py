"""The plugin host: one pluggy manager, loaded once, and the registry it fills.

Plugins (the built-in ones too) are found through the ``searchkit`` entry-point group.
``SEARCHKIT_LOAD_PLUGINS=a,b`` loads only the named entry points (an empty value loads
none), which helps when a broken third-party plugin is installed.
"""

from __future__ import annotations

import os
from functools import lru_cache

import pluggy

from . import hookspecs
from .domain import Domain, Heuristic
from .engines import BUILTIN_ENGINES, EngineInfo
from .errors import InputError

ENTRY_POINT_GROUP = "searchkit"


def _load_entry_points(pm: pluggy.PluginManager) -> None:
    allow = os.environ.get("SEARCHKIT_LOAD_PLUGINS")
    if allow is None:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
        return
    from importlib.metadata import entry_points

    wanted = {n.strip() for n in allow.split(",") if n.strip()}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in wanted and pm.get_plugin(ep.name) is None:
            pm.register(ep.load(), name=ep.name)


@lru_cache(maxsize=1)
def get_plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("searchkit")
    pm.add_hookspecs(hookspecs)
    _load_entry_points(pm)
    pm.check_pending()
    return pm


def registry_changed() -> None:
    """Forget cached domains and engines (after registering a plugin at run time)."""
    domains.cache_clear()
    engines.cache_clear()
    games.cache_clear()


@lru_cache(maxsize=1)
def domains() -> dict[str, Domain]:
    found: dict[str, Domain] = {}

    def register(domain: Domain) -> None:
        found[domain.name] = domain

    pm = get_plugin_manager()
    pm.hook.register_domains(register=register)

    def register_heuristic(domain_name: str, heuristic: Heuristic) -> None:
        if domain_name in found:
            found[domain_name].with_heuristic(heuristic)

    pm.hook.register_heuristics(register=register_heuristic)
    return dict(sorted(found.items()))


@lru_cache(maxsize=1)
def engines() -> dict[str, EngineInfo]:
    found = dict(BUILTIN_ENGINES)

    def register(info: EngineInfo) -> None:
        found[info.name] = info

    get_plugin_manager().hook.register_engines(register=register)
    return found


@lru_cache(maxsize=1)
def games() -> dict:
    """Playable games by name (`searchkit.play.Game` objects from ``register_games``)."""
    found: dict = {}

    def register(game) -> None:
        found[game.name] = game

    get_plugin_manager().hook.register_games(register=register)
    return dict(sorted(found.items()))


def get_domain(name: str) -> Domain:
    known = domains()
    if name not in known:
        raise InputError(f"unknown domain {name!r} (known: {', '.join(known) or 'none installed'})")
    return known[name]


def get_engine(name: str) -> EngineInfo:
    known = engines()
    if name not in known:
        raise InputError(f"unknown engine {name!r} (known: {', '.join(known)})")
    return known[name]
