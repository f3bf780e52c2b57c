"""Search trees: record one from any engine run, draw it, export it.

>>> rec = TreeRecorder(max_nodes=500)
>>> result = astar(problem, observer=rec)          # doctest: +SKIP
>>> save_tree(rec.finish(result), Path("tree.png")) # doctest: +SKIP

Nothing here imports matplotlib or networkx until a tree is built or saved.
"""

from .animation import check_directory, check_file, save_frames, save_gif, save_png
from .layout import tidy_layout
from .save import SUFFIXES, save_tree
from .tree import STATUSES, TreeRecorder

__all__ = [
    "STATUSES",
    "SUFFIXES",
    "TreeRecorder",
    "check_directory",
    "check_file",
    "save_frames",
    "save_gif",
    "save_png",
    "save_tree",
    "tidy_layout",
]
