"""A job's search tree: the recorder to attach to its run and the file it is saved to.

The ``tree`` command and the web app's export both go through here, so for the same
search they write the same file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .save import save_tree
from .tree import TreeRecorder

if TYPE_CHECKING:
    from ..result import Result
    from ..solving import Job


def job_recorder(job: Job, max_nodes: int) -> TreeRecorder:
    """A recorder naming each state by the domain's text for it, on one line."""
    problem, domain = job.problem, job.domain
    return TreeRecorder(max_nodes=max_nodes, label=lambda s: " ".join(domain.describe_state(problem, s).split()))


def save_job_tree(job: Job, recorder: TreeRecorder, result: Result, path: Path) -> Any:
    """Write the recorded tree, the solution path marked, to ``path`` (format by suffix);
    return the graph."""
    graph = recorder.finish(result)
    h = job.heuristic.name if job.heuristic else "no heuristic"
    save_tree(
        graph,
        path,
        title=f"{job.domain.name} · {job.engine.name} · {h} · {result.status}",
        board_labels=lambda s, a: job.domain.describe_reached(job.problem, s, a),
    )
    return graph
