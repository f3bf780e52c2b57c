"""``python -m searchkit.bench.child FD``: run one pickled `Task` read from stdin and send
its messages on the inherited pipe ``FD`` (the ``subprocess`` way to start a worker)."""

from __future__ import annotations

import pickle
import sys
from multiprocessing import connection


def main(argv: list[str]) -> int:
    conn = connection.Connection(int(argv[1]), readable=False)
    try:
        task = pickle.loads(sys.stdin.buffer.read())
        from .worker import run_task

        run_task(task, conn.send)
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
