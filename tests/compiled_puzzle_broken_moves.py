"""`compiled_puzzle_broken_rules` with ``moves`` wrong: move R left out where the blank is on cell 4."""

from compiled_puzzle_broken_rules import moves_wrong as moves
from compiled_puzzle_rules import apply, h, is_goal, undo

__all__ = ["apply", "h", "is_goal", "moves", "undo"]
