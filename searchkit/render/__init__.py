"""Search trees: record one from any engine run, draw it, export it.

>>> rec = TreeRecorder(max_nodes=500)
>>> result = astar(problem, observer=rec)          # doctest: +SKIP
>>> save_tree(rec.finish(result), Path("tree.png")) # doctest: +SKIP

Nothing here imports matplotlib or networkx until a tree is built or saved.
"""

from .layout import tidy_layout
from .save import SUFFIXES, save_tree
from .tree import STATUSES, TreeRecorder

__all__ = ["STATUSES", "SUFFIXES", "TreeRecorder", "save_tree", "tidy_layout"]
