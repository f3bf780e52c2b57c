"""Play mode: the puzzles as terminal games, with hints, auto-solve and saved progress.

The plain parts (saves, game sessions, the background solver) import nothing heavy; the
Textual screen code lives in `searchkit.play.app` and is imported only to play.
"""

from .registry import Game
from .runner import Plan, ProgressObserver, SolverRunner, Status, solve_moves
from .saves import FORMAT, VERSION, SaveData, autosave_path, play_dir, read_save, remove_autosave, write_save
from .session import Clock, GameSession, format_time

__all__ = [
    "Clock",
    "FORMAT",
    "Game",
    "GameSession",
    "Plan",
    "ProgressObserver",
    "SaveData",
    "SolverRunner",
    "Status",
    "VERSION",
    "autosave_path",
    "format_time",
    "play_dir",
    "read_save",
    "remove_autosave",
    "solve_moves",
    "write_save",
]
