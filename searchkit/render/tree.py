"""Recording a search tree from an engine's observer events.

A tree node is one *generated search node*: the root plus one node per ``generate``
event, so a duplicate or a pruned child is a leaf of its own, and a state reached twice
(a reopening, or two branches of a depth-first search) appears twice.  The recorder keeps
flat lists while the search runs and builds the `networkx.DiGraph` only when asked.

How ``expand`` events find their tree node, for every engine:

* the child generated just before (a depth-first engine visits a child right after
  generating it, and a best-first engine often pops the child it just pushed);
* otherwise the latest ``new``/``improved``/``reopened`` node of that state with the same ``g``
  (best-first and breadth-first: the open entry that was popped; its ``g`` tells a
  state's forward node from its backward node in bidirectional search);
* otherwise, while there is room, a new root: the start state, or a goal state that
  bidirectional search expands backwards (so bidirectional search gives two trees).

IDA* and IDDFS: only the **last** iteration is kept (``iteration`` resets the recorder),
since each iteration repeats the previous one; the graph says which bound it had.  A
depth-first engine's frames are found again on backtracking by state and ``g`` (a path may
revisit a state when the domain only forbids moving straight back; the deeper copy has
the larger ``g``).

Node counts: best-first and breadth-first trees have ``1 + Stats.generated`` nodes and
``Stats.expanded`` expanded ones.  Bidirectional search reports no event for the
children it drops as duplicates: its trees hold ``generated - duplicates`` children.  The
depth-first engines count a node's children when it is expanded, so once a solution
is found the siblings after it are counted in ``Stats.generated`` but never reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import InputError
from ..observer import Observer

ROOT, NEW, IMPROVED, REOPENED, DUPLICATE, PRUNED = "root", "new", "improved", "reopened", "duplicate", "pruned"
OPEN_KINDS = (ROOT, NEW, IMPROVED, REOPENED)
QUEUED = (NEW, IMPROVED, REOPENED)  # generated and put on the open list  # nodes an engine may expand later

# node statuses in the finished graph
PATH, EXPANDED, GENERATED = "path", "expanded", "generated"
STATUSES = (PATH, EXPANDED, GENERATED, DUPLICATE, PRUNED)


class TreeRecorder(Observer):
    """An observer that records up to ``max_nodes`` tree nodes of one search.

    ``label(state) -> str`` names a state in the graph (default ``str``).  Attach it to an
    engine run, then call `finish` with the result to get the graph with the solution
    path marked (or read `graph` for the tree as recorded so far).

    Graph nodes are ints in generation order (0 = the root) with ``label``, ``g``, ``h``,
    ``f`` (floats), ``depth``, ``order`` (1-based expansion order, 0 = not expanded),
    ``kind`` (root/new/improved/reopened/duplicate/pruned), ``status`` (one of `STATUSES`),
    ``on_path``, ``children_cut`` (the cap dropped some of its children), ``state`` (the raw
    state) and ``reached_by`` (the raw action that led to it, None at a root), both for
    drawing: exports leave them out.  Edges carry ``action`` (its text) and ``on_path``; the
    graph carries the counts, ``truncated`` and ``dropped``.
    """

    def __init__(self, max_nodes: int = 2000, label: Callable[[Any], str] | None = None):
        if max_nodes < 1:
            raise InputError(f"--max-nodes must be at least 1 (got {max_nodes})")
        self.max_nodes = max_nodes
        self.label = label or str
        self.iterations = 0
        self.bound: float | None = None
        self._reset()

    def _reset(self) -> None:
        # one entry per tree node, indexed by node id (= order of generation)
        self._state: list = []
        self._parent: list[int] = []
        self._action: list = []
        self._g: list = []
        self._h: list = []
        self._kind: list[str] = []
        self._order: list[int] = []  # 1-based expansion order, 0 = never expanded
        self._depth: list[int] = []
        self._cut: set[int] = set()  # nodes some of whose children were dropped (the cap)
        self._live: dict = {}  # state -> latest node of that state that may be expanded
        self._shadow: dict = {}  # state -> older unexpanded open nodes (bidirectional meets)
        self._stack: list = []  # (state, node or -1, g): the expanded node and its ancestors
        self._last_child: Any = None  # the last generated child that may be expanded next
        self._last_node = -1
        self._last_depth = 0  # stack height of that child's parent
        self.expansions = 0  # expand events seen (recorded or not)
        self.generations = 0  # generate events seen
        self.dropped = 0  # generate events not recorded because the tree was full

    # -- observer events ------------------------------------------------------------------
    def iteration(self, bound: float) -> None:
        """A new depth-first iteration: keep only the latest one."""
        self.iterations += 1
        self.bound = bound
        self._reset()

    def expand(self, state: Any, g: float, h: float | None) -> None:
        self.expansions += 1
        stack = self._stack
        if self._last_child is not None and state == self._last_child:
            node = self._last_node
            del stack[self._last_depth :]
            if node >= 0 and self._g[node] != g:  # the same state popped from elsewhere
                node = self._find(state, g)
                stack.clear()
        else:
            node = self._find(state, g)
            stack.clear()
        self._last_child = None
        if node < 0 and len(self._state) < self.max_nodes:  # nothing dropped yet: a root
            node = self._add(state, -1, None, g, h, ROOT)
        if node >= 0:
            self._order[node] = self.expansions
        stack.append((state, node, g))

    def generate(self, parent: Any, action: Any, child: Any, g: float, h: float | None, kind: str) -> None:
        self.generations += 1
        stack = self._stack
        # a depth-first engine backtracked: find the frame generating now (a state may
        # repeat on a path when the domain only forbids moving straight back, but the
        # deeper copy has a larger g than a child of the shallower one)
        while stack and (stack[-1][0] != parent or stack[-1][2] > g):
            stack.pop()
        pnode = stack[-1][1] if stack else -1
        if pnode >= 0 and len(self._state) < self.max_nodes:
            node = self._add(child, pnode, action, g, h, kind)
        else:
            node = -1
            self.dropped += 1
            if pnode >= 0:
                self._cut.add(pnode)
            if kind in QUEUED:
                self._live.pop(child, None)
        if kind in QUEUED:
            self._last_child, self._last_node, self._last_depth = child, node, len(stack)
        else:
            self._last_child = None

    # -- bookkeeping ----------------------------------------------------------------------
    def _add(self, state: Any, parent: int, action: Any, g: float, h: float | None, kind: str) -> int:
        node = len(self._state)
        self._state.append(state)
        self._parent.append(parent)
        self._action.append(action)
        self._g.append(g)
        self._h.append(h)
        self._kind.append(kind)
        self._order.append(0)
        self._depth.append(self._depth[parent] + 1 if parent >= 0 else 0)
        if kind in OPEN_KINDS:
            old = self._live.get(state)
            if old is not None and self._order[old] == 0:
                self._shadow.setdefault(state, []).append(old)
            self._live[state] = node
        return node

    def _find(self, state: Any, g: float) -> int:
        """The open node of ``state`` whose ``g`` matches, or -1."""
        node = self._live.get(state)
        if node is not None and self._g[node] == g and self._order[node] == 0:
            return node
        older = self._shadow.get(state)
        if older:
            for i in range(len(older) - 1, -1, -1):
                if self._g[older[i]] == g and self._order[older[i]] == 0:
                    return older.pop(i)
        return -1

    # -- results --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._state)

    @property
    def truncated(self) -> bool:
        """True when the cap stopped the recording of generated nodes."""
        return self.dropped > 0

    @property
    def graph(self):
        """The tree recorded so far as a `networkx.DiGraph` (no solution path marked)."""
        return self._build(set())

    def finish(self, result: Any = None):
        """The recorded tree with the solution path of ``result`` (a `Result`) marked."""
        if result is not None and not self._state and getattr(result, "states", None):
            # the start was a goal: engines report no events, the tree is the root alone
            self._add(result.states[0], -1, None, 0, 0, ROOT)
        on_path: set[int] = set()
        matches = True
        if result is not None and getattr(result, "solved", False) and result.states:
            on_path, matches = self._solution_nodes(list(result.states))
        graph = self._build(on_path)
        if result is not None:
            graph.graph["engine"] = str(getattr(result, "engine", "") or "")
            graph.graph["status"] = str(getattr(result, "status", ""))
            if getattr(result, "solved", False):
                graph.graph["path_length"] = len(result.actions)
                graph.graph["path_cost"] = float(result.cost or 0)
                graph.graph["path_matches_result"] = matches
                graph.graph["path_nodes_drawn"] = len(on_path)
        return graph

    def _children(self) -> list[list[int]]:
        kids: list[list[int]] = [[] for _ in self._state]
        for node, parent in enumerate(self._parent):
            if parent >= 0:
                kids[parent].append(node)
        return kids

    def _solution_nodes(self, states: list) -> tuple[set[int], bool]:
        """Tree nodes of the solution path, walked down from the roots.

        Forward from a root holding the start, and backwards from a root holding the goal
        (bidirectional search).  If the walk stops short (a tie in cost made the engine
        rebuild an equally cheap path the tree reached through a duplicate), the tree's
        own path to the goal is marked instead; the flag says whether the marked nodes are
        the result's path (or its beginning, when the cap cut the rest).
        """
        kids = self._children()
        roots = [n for n, p in enumerate(self._parent) if p < 0]
        marked: set[int] = set()
        covered = 0  # solution states covered by the walks
        for root in roots:
            if self._state[root] == states[0]:
                covered += self._walk(root, states, kids, marked)
            if len(roots) > 1 and self._state[root] == states[-1]:
                covered += self._walk(root, states[::-1], kids, marked)
        if covered >= len(states) or not self._state:
            return marked, True
        goal = self._live.get(states[-1])
        if goal is not None and self._state[self._root_of(goal)] == states[0]:
            chain = set()
            while goal >= 0:
                chain.add(goal)
                goal = self._parent[goal]
            return chain, False
        return marked, True  # the beginning of the path: the rest was not recorded

    def _walk(self, node: int, states: list, kids: list[list[int]], marked: set[int]) -> int:
        """Mark the nodes along ``states`` from ``node``; return how many were found."""
        marked.add(node)
        found = 1
        for target in states[1:]:
            best = -1
            for k in kids[node]:
                if self._state[k] == target and (best < 0 or _rank(self, k) > _rank(self, best)):
                    best = k
            if best < 0:
                break
            node = best
            marked.add(node)
            found += 1
            if self._kind[node] in (DUPLICATE, PRUNED):
                break
        return found

    def _root_of(self, node: int) -> int:
        while self._parent[node] >= 0:
            node = self._parent[node]
        return node

    def _build(self, on_path: set[int]):
        import networkx as nx

        graph: nx.DiGraph[int] = nx.DiGraph()
        label = self.label
        for node, state in enumerate(self._state):
            kind = self._kind[node]
            order = self._order[node]
            if node in on_path:
                status = PATH
            elif kind == DUPLICATE or kind == PRUNED:
                status = kind
            else:
                status = EXPANDED if order else GENERATED
            g, h = float(self._g[node]), self._h[node]
            h = 0.0 if h is None else float(h)  # an engine that computes no h sends None
            graph.add_node(
                node,
                label=str(label(state)),
                g=g,
                h=h,
                f=g + h,
                depth=self._depth[node],
                order=order,
                kind=kind,
                status=status,
                on_path=node in on_path,
                children_cut=node in self._cut,
                state=state,
                reached_by=self._action[node] if self._parent[node] >= 0 else None,
            )
            parent = self._parent[node]
            if parent >= 0:
                graph.add_edge(
                    parent, node, action=str(self._action[node]), on_path=node in on_path and parent in on_path
                )
        graph.graph.update(
            max_nodes=self.max_nodes,
            truncated=self.truncated,
            dropped=self.dropped,
            expansions=self.expansions,
            generations=self.generations,
            iterations=self.iterations,
            h_computed=any(h is not None for h in self._h),
        )
        if self.bound is not None:
            graph.graph["bound"] = float(self.bound)
        return graph


def _rank(rec: TreeRecorder, node: int) -> tuple:
    """Which of several same-state children the solution path goes through."""
    kind = rec._kind[node]
    return (kind not in (DUPLICATE, PRUNED), rec._order[node] > 0, node)
