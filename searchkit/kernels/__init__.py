"""Compiled search for every domain: the core's engines over a domain's compiled (numba) rules.

A problem offers its rules through ``compiled_rules()`` returning a `CompiledRules` (the
contract: `searchkit.kernels.rules`); the engines ``idastar``, ``astar``, ``greedy`` and
``bfs`` then run compiled (their parameter ``compiled``: ``auto``, ``on``, ``off``), with
the same limits, statistics, progress and Result as their Python form (``Result.compiled``
says which ran).  Modules: `rules` (the contract, the choice), `generate` (a cached module
of kernels per rules module), `table` (the state table), `buckets` (the open list),
`meeting` (how a best-first search stepped in a portfolio meets the others), `idastar`,
`bestfirst`, `breadth` (the kernels and their drivers), `run` (what the drivers share),
`search` (the entry points), `codes` (the numbers kernels and drivers exchange).

Importing this package imports neither numpy nor numba: the engines look here on every run.
"""

from __future__ import annotations

from .rules import CompiledRules, choose, rules_of, wants_nodes

__all__ = ["CompiledRules", "choose", "rules_of", "wants_nodes"]
