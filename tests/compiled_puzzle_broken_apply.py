"""`compiled_puzzle_broken_rules` with ``apply`` wrong: move R makes move D where both are legal."""

from compiled_puzzle_broken_rules import apply_wrong as apply
from compiled_puzzle_rules import h, is_goal, moves, undo

__all__ = ["apply", "h", "is_goal", "moves", "undo"]
