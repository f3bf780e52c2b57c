"""`compiled_puzzle_broken_rules` with ``undo`` wrong: undoing move U changes nothing."""

from compiled_puzzle_broken_rules import undo_wrong as undo
from compiled_puzzle_rules import apply, cost, h, h_after, inverse, is_goal, moves

__all__ = ["apply", "cost", "h", "h_after", "inverse", "is_goal", "moves", "undo"]
