"""The board and a position as arrays: what the rules written once for the compiled kernels
and the Python searches (`freeze_rule`, `corral_rule`) read, and those rules.

A board's arrays are made once, when first asked (`arrays_of`, kept on the board); a
position's boxes or the player's squares, a mask in the Python searches, become a flag per
square (`BoardArrays.occupancy`) in about a microsecond.  The rules are imported with the
first board's arrays, not with this module: where numba runs, its import (a large part of a
second) waits till a search first tests a position, and a command that searches nothing
never pays it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .board import bits

BYTE_FLAGS = [bytes(v >> i & 1 for i in range(8)) for v in range(256)]  # a byte's bits, lowest first


def neighbours(board: Any) -> np.ndarray:
    """Per square and direction (up, down, left, right) the next floor square (-1: a wall
    or the edge), an ``int64`` array of ``(board.size, 4)``."""
    size = board.size
    nbr = np.full((size, 4), -1, np.int64)
    floor = board.floor
    for x in range(size):
        if floor >> x & 1:
            for k, o in enumerate(board.offsets):
                y = x + o
                if 0 <= y < size and floor >> y & 1:
                    nbr[x, k] = y
    return nbr


class BoardArrays:
    """One board for the rules: ``nbr`` (`neighbours`), and a flag per square for ``floor``,
    ``dead`` (`Board.is_dead`: no push takes a box from it to a goal; walls too), ``goal``,
    and ``no_dead`` (all 0: for a rule told not to use dead squares); the rules themselves
    (``frozen_boxes``, ``freeze_dead``, ``pi_corral``, ``corral_of``); the rules' working
    space, made once, for one call at a time: ``seen`` and ``members`` (a square each) and
    ``meta`` (``meta[STAMP]``: ``seen``'s mark counter) for the freeze rule, ``area``,
    ``uf``, ``group`` (a square each) and ``spare`` (twice that and 2) for the PI-corral
    rule.

    ``plain`` (the default where the rules were imported plain, numba absent or switched
    off then; a switch flipped later in the process keeps them compiled): they run as plain Python,
    which reads Python's own containers several times as fast as numpy's scalars, so the
    arrays are those - ``nbr`` a list of rows, flags bytearrays (or bytes), working space
    lists - indexed as the numpy arrays are (``nbr[x][k]``)."""

    def __init__(self, board: Any, plain: bool | None = None):
        from . import corral_rule, freeze_rule

        self.frozen_boxes, self.freeze_dead = freeze_rule.frozen_boxes, freeze_rule.freeze_dead
        self.pi_corral, self.corral_of = corral_rule.pi_corral, corral_rule.corral_of
        self._stamp = freeze_rule.STAMP
        self.plain = not hasattr(self.frozen_boxes, "py_func") if plain is None else plain
        self.size = size = board.size
        self._bytes = (size + 7) // 8
        nbr = neighbours(board)
        floor = bytes(1 - w for w in board.is_wall)
        if self.plain:
            self.nbr: Any = nbr.tolist()
            self.floor: Any = bytearray(floor)
            self.dead: Any = bytearray(board.is_dead)
            self.goal: Any = bytearray(board.is_goal)
            self.no_dead: Any = bytearray(size)
        else:
            self.nbr = nbr
            self.floor = np.frombuffer(floor, np.uint8).copy()
            self.dead = np.frombuffer(bytes(board.is_dead), np.uint8).copy()
            self.goal = np.frombuffer(bytes(board.is_goal), np.uint8).copy()
            self.no_dead = np.zeros(size, np.uint8)
        self.seen, self.members, self.meta = self.zeros(size), self.zeros(size), self.zeros(self._stamp + 1)
        self.area, self.uf, self.group, self.spare = (self.zeros(n) for n in (size, size, size, 2 * size + 2))

    def occupancy(self, mask: int) -> Any:
        """The squares of ``mask`` (a mask of this board's squares) as a new flag per square,
        read-only where plain (``bytes``, joined a byte of the mask at a time)."""
        raw = mask.to_bytes(self._bytes, "little")
        if self.plain:
            return b"".join([BYTE_FLAGS[v] for v in raw])[: self.size]
        return np.unpackbits(np.frombuffer(raw, np.uint8), count=self.size, bitorder="little")

    def squares(self, mask: int, flags: Any) -> Any:
        """The squares of ``mask``, ascending (``int64``), ``flags`` its `occupancy`."""
        return bits(mask) if self.plain else np.flatnonzero(flags)

    def stamp(self) -> int:
        """A mark not yet in ``seen`` (the freeze rule's counter taken one up)."""
        self.meta[self._stamp] += 1
        return int(self.meta[self._stamp])

    def zeros(self, n: int) -> Any:
        """``n`` integers of working space, all 0 (``int64``)."""
        return [0] * n if self.plain else np.zeros(n, np.int64)


def arrays_of(board: Any) -> BoardArrays:
    """``board``'s arrays, made when first asked and kept (``board.rule_arrays``)."""
    arrays = board.rule_arrays
    if arrays is None:
        arrays = board.rule_arrays = BoardArrays(board)
    return arrays
