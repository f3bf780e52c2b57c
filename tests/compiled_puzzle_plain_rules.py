"""The sliding-tile puzzle's required compiled rules alone (no h_after, cost or inverse):
the kernels' generic paths, on the rules of `compiled_puzzle_rules`."""

from compiled_puzzle_rules import apply, h, is_goal, moves, undo

__all__ = ["apply", "h", "is_goal", "moves", "undo"]
