"""The plugin host: one pluggy manager, loaded once, and the registry it fills.

Plugins (the built-in ones too) are found through the ``searchkit`` entry-point group.
``SEARCHKIT_LOAD_PLUGINS=a,b`` loads only the named entry points (an empty value loads
none), which helps when a broken third-party plugin is installed.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from typing import Any

import pluggy

from . import hookspecs
from .domain import Domain, Heuristic
from .engines import BUILTIN_ENGINES, EngineInfo
from .errors import InputError

ENTRY_POINT_GROUP = "searchkit"


def report_broken(plugin: str, problem: BaseException | str) -> None:
    """One line on stderr naming a plugin that was left out and why; the rest keeps working."""
    why = problem if isinstance(problem, str) else f"{type(problem).__name__}: {problem}"
    print(f"Warning: plugin {plugin!r} left out: {why}", file=sys.stderr)


def _load_entry_points(pm: pluggy.PluginManager) -> None:
    """Load each plugin of the entry-point group on its own, so one that fails to import is
    reported and left out instead of stopping every command."""
    from importlib.metadata import entry_points

    allow = os.environ.get("SEARCHKIT_LOAD_PLUGINS")
    wanted = None if allow is None else {n.strip() for n in allow.split(",") if n.strip()}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if (wanted is not None and ep.name not in wanted) or pm.get_plugin(ep.name) is not None:
            continue
        try:
            pm.register(ep.load(), name=ep.name)
        except Exception as e:
            report_broken(ep.name, e)


def _call_each(hook: Any, **kwargs: Any) -> None:
    """Call every plugin's implementation of ``hook`` on its own, reporting one that fails."""
    for impl in reversed(hook.get_hookimpls()):  # pluggy's own order: last registered first
        try:
            impl.function(**kwargs)
        except Exception as e:
            report_broken(impl.plugin_name, e)


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
        if not isinstance(domain, Domain) or not domain.name:
            raise ValueError(f"register_domains gave {domain!r}, not a named searchkit.Domain")
        if domain.name in found:
            raise ValueError(f"a domain called {domain.name!r} is registered already")
        found[domain.name] = domain

    pm = get_plugin_manager()
    _call_each(pm.hook.register_domains, register=register)

    def register_heuristic(domain_name: str, heuristic: Heuristic) -> None:
        if domain_name in found:
            found[domain_name].with_heuristic(heuristic)

    _call_each(pm.hook.register_heuristics, register=register_heuristic)
    return dict(sorted(found.items()))


@lru_cache(maxsize=1)
def engines() -> dict[str, EngineInfo]:
    found = dict(BUILTIN_ENGINES)

    def register(info: EngineInfo) -> None:
        found[info.name] = info

    _call_each(get_plugin_manager().hook.register_engines, register=register)
    return found


@lru_cache(maxsize=1)
def games() -> dict[Any, Any]:
    """Playable games by name (`searchkit.play.Game` objects from ``register_games``)."""
    found: dict[Any, Any] = {}

    def register(game: Any) -> None:
        found[game.name] = game

    _call_each(get_plugin_manager().hook.register_games, register=register)
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
