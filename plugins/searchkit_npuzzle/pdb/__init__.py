"""Additive (disjoint) pattern databases for the sliding-tile puzzle.

Interfaces the domain and the fast engine use:

* ``PARTITIONS``: name -> `Partition` (``pdb-555``, ``pdb-663`` and ``pdb-78`` for 4x4,
  ``pdb-8`` for 3x3, ``pdb-55554`` for 5x5).  A partition's groups are written for the *canonical* goal, the
  blank-first one (tile k's home is cell k).  For another goal, `goal_groups` carries the
  canonical cells onto the goal with the board symmetry that takes cell 0 to the goal's
  blank cell (identity, 180-degree turn, or a mirror; the blank-last goal gets the
  180-degree turn, so its groups have the same shapes), and a group is then the set of
  tiles whose goal cells are those cells.  When no symmetry takes cell 0 to the blank's
  goal cell, canonical cell k means the k-th non-blank goal cell in row-major order.
* ``pdb_heuristics()``: the partitions as `searchkit.Heuristic`s; ``make(problem)`` loads
  (or builds, once, and caches) the tables and returns ``state_int -> value``, whose
  ``successors_with_h`` attribute is the incremental successor function (`packed`).
* `get_database(name, width, height, goal)`: the loaded `PatternDatabase`, memoised per
  process; its `tile_keys()` and `flat()` give what the incremental and compiled engines need.

A group's table counts only the moves of the group's own tiles, so the groups' values add
up to an admissible estimate.  It is built by a breadth-first search over the abstract
states (the group's tile cells and the blank's cell) in which a blank move that swaps with
a tile outside the group costs 0 and one that swaps with a group tile costs 1 (a 0-1 BFS,
vectorised with numpy over lexicographic ranks of partial permutations), then the
minimum over the blank's cells.  When numba is installed the compiled `build_stream` builder
does the same search in a few bits per abstract state (four times faster, and the only
way to build the 7-8 partition's 8-tile group: 4.2e9 abstract states).  Lookups take the
maximum of the state's value and the value of its main-diagonal mirror image when the
board is square and the blank's goal cell is on the diagonal (so the mirrored goal is the
goal).

The modules, each importing only those listed before it: `partitions` (which tiles group
together, carried onto any goal), `ranking` (placements as table indices), `database`
(a loaded database and its lookups), `build` (the numpy builder; `build_stream`, the
compiled one, is imported only when used), `packed` (incremental lookups on packed
states), `cache` (the files), `load` (by name: memory, cache or build).
"""

from __future__ import annotations

from .build import MAX_ABSTRACT, MAX_STREAM_BYTES, build_group, group_builder, neighbour_table
from .database import SPARSE_LIMIT, UNSEEN, PatternDatabase
from .load import _LOADED, cache_entry, get_database, load_or_build, pdb_heuristics
from .partitions import PARTITIONS, Partition, check_partition, goal_groups, mirror_maps, parse_partition
from .ranking import place_values, rank, rank_factors, rank_one, sparse_index, unrank

__all__ = [
    "MAX_ABSTRACT",
    "MAX_STREAM_BYTES",
    "PARTITIONS",
    "SPARSE_LIMIT",
    "UNSEEN",
    "Partition",
    "PatternDatabase",
    "_LOADED",
    "build_group",
    "cache_entry",
    "check_partition",
    "get_database",
    "goal_groups",
    "group_builder",
    "load_or_build",
    "mirror_maps",
    "neighbour_table",
    "parse_partition",
    "pdb_heuristics",
    "place_values",
    "rank",
    "rank_factors",
    "rank_one",
    "sparse_index",
    "unrank",
]
