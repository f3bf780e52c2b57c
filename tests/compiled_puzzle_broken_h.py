"""`compiled_puzzle_broken_rules` with ``h`` wrong: one too high where the blank is on cell 0."""

from compiled_puzzle_broken_rules import h_wrong as h
from compiled_puzzle_rules import apply, is_goal, moves, undo

__all__ = ["apply", "h", "is_goal", "moves", "undo"]
