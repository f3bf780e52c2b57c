"""Search-tree recording, layout, drawing and exports (searchkit.render)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchkit import (
    GraphProblem,
    InputError,
    Observer,
    astar,
    bfs,
    bidirectional_bfs,
    dfs,
    dijkstra,
    greedy,
    idastar,
    iddfs,
)
from searchkit.render import TreeRecorder, save_tree, tidy_layout

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


class Sliding:
    """A small sliding-tile puzzle: the blank (0) moves; Manhattan distance as h."""

    def __init__(self, board, width=3):
        self.start, self.w, self.h_rows = tuple(board), width, len(board) // width
        self.goal = tuple(list(range(1, len(board))) + [0])
        self.where = {t: i for i, t in enumerate(self.goal)}

    def initial_state(self):
        return self.start

    def is_goal(self, s):
        return s == self.goal

    def successors(self, s):
        z = s.index(0)
        r, c = divmod(z, self.w)
        out = []
        for action, (dr, dc) in MOVES.items():
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.h_rows and 0 <= cc < self.w:
                b = list(s)
                b[z], b[rr * self.w + cc] = b[rr * self.w + cc], 0
                out.append((action, tuple(b), 1))
        return out

    def heuristic(self, s):
        w = self.w
        return sum(abs(i // w - self.where[t] // w) + abs(i % w - self.where[t] % w) for i, t in enumerate(s) if t)

    def goal_states(self):
        return [self.goal]

    def predecessors(self, s):
        # moves are reversible: s --a--> p means p --opposite(a)--> s
        return [(OPPOSITE[a], p, c) for a, p, c in self.successors(s)]

    def board(self, s):
        w = self.w
        return "\n".join(" ".join(str(t) if t else "." for t in s[r * w : (r + 1) * w]) for r in range(self.h_rows))


EASY = (1, 5, 2, 7, 0, 3, 8, 4, 6)  # 8 moves
MEDIUM = (7, 1, 3, 0, 2, 6, 5, 4, 8)  # 9 moves, bfs generates ~500 nodes
HARD = (7, 5, 2, 0, 4, 3, 8, 1, 6)  # 15 moves, A* and IDA* generate ~150-250 nodes


def record(engine, problem, max_nodes=100_000, **params):
    rec = TreeRecorder(max_nodes=max_nodes)
    result = engine(problem, observer=rec, **params)
    return rec, result, rec.finish(result)


def statuses(graph):
    return Counter(d["status"] for _n, d in graph.nodes(data=True))


def expanded_count(graph):
    return sum(1 for _n, d in graph.nodes(data=True) if d["order"] > 0)


def check_tree(graph, problem, unit_cost=False, check_g=True):
    """Every edge is a real move from its parent's state, with g growing by its cost,
    and parents were expanded before their expanded children.  (BFS reports g = 0.)"""
    assert nx.is_forest(graph)
    for u, v, d in graph.edges(data=True):
        pu, pv = graph.nodes[u], graph.nodes[v]
        steps = {(str(a), s): c for a, s, c in problem.successors(pu["state"])}
        assert (d["action"], pv["state"]) in steps, (pu["state"], d["action"], pv["state"])
        assert pu["order"] > 0
        if pv["order"]:
            assert pv["order"] > pu["order"]
        cost = 1 if unit_cost else steps[(d["action"], pv["state"])]
        if check_g:
            assert pv["g"] == pytest.approx(pu["g"] + cost)
        assert pv["depth"] == pu["depth"] + 1


def check_path(graph, result):
    """The marked nodes run from the root to the goal along the result's states and actions."""
    path = [n for n, d in graph.nodes(data=True) if d["on_path"]]
    assert len(path) == len(result.states)
    root = [n for n in path if graph.in_degree(n) == 0]
    assert len(root) == 1
    node, states, actions = root[0], [graph.nodes[root[0]]["state"]], []
    while True:
        nxt = [v for v in graph.successors(node) if graph.nodes[v]["on_path"]]
        if not nxt:
            break
        assert len(nxt) == 1 and graph.edges[node, nxt[0]]["on_path"]
        actions.append(graph.edges[node, nxt[0]]["action"])
        node = nxt[0]
        states.append(graph.nodes[node]["state"])
    assert states == list(result.states)
    assert actions == [str(a) for a in result.actions]
    assert graph.graph["path_matches_result"] is True


# -- recording: counts match the engines' statistics ----------------------------------------
@pytest.mark.parametrize("engine", [astar, dijkstra, greedy, bfs], ids=lambda e: e.__name__)
def test_best_first_and_bfs_trees_have_one_node_per_generated_node(engine):
    problem = Sliding(MEDIUM)
    rec, result, graph = record(engine, problem)
    s = result.stats
    assert result.solved
    assert graph.number_of_nodes() == 1 + s.generated
    assert graph.number_of_edges() == s.generated
    assert expanded_count(graph) == s.expanded
    kinds = Counter(d["kind"] for _n, d in graph.nodes(data=True))
    assert kinds["duplicate"] == s.duplicates
    assert kinds["reopened"] == s.reopened
    assert not graph.graph["truncated"]
    check_tree(graph, problem, check_g=engine is not bfs)
    check_path(graph, result)


def test_expansion_order_is_the_engines_order():
    problem = Sliding(EASY)
    seen = []

    class Spy(Observer):
        def expand(self, state, g, h):
            seen.append(state)

    rec = TreeRecorder()
    from searchkit.observer import Observers

    result = astar(problem, observer=Observers(rec, Spy()))
    graph = rec.finish(result)
    order = sorted((d["order"], d["state"]) for _n, d in graph.nodes(data=True) if d["order"])
    assert [s for _o, s in order] == seen
    assert [o for o, _s in order] == list(range(1, len(seen) + 1))


def test_reopened_nodes_are_matched_by_their_cost():
    # an inconsistent heuristic makes A* find a cheaper path to "c" after expanding it
    edges = {"s": [("a", 1), ("c", 4)], "a": [("c", 1)], "c": [("g", 5)], "g": []}
    h = {"s": 0, "a": 5, "c": 0, "g": 0}
    problem = GraphProblem(edges, "s", ["g"], h)
    rec, result, graph = record(astar, problem)
    assert result.stats.reopened >= 1
    assert graph.number_of_nodes() == 1 + result.stats.generated
    assert expanded_count(graph) == result.stats.expanded
    check_tree(graph, problem)
    c_nodes = [d for _n, d in graph.nodes(data=True) if d["state"] == "c"]
    assert sorted((d["g"], d["kind"], d["order"] > 0) for d in c_nodes) == [(2.0, "reopened", True), (4.0, "new", True)]
    check_path(graph, result)
    assert [graph.nodes[n]["state"] for n in graph if graph.nodes[n]["on_path"]] == ["s", "a", "c", "g"]


class LastIteration(Observer):
    """Counts events of the last iteration only: an independent check of the recorder."""

    def __init__(self):
        self.expanded = self.generated = 0
        self.kinds = Counter()

    def iteration(self, bound):
        self.__init__()

    def expand(self, state, g, h):
        self.expanded += 1

    def generate(self, parent, action, child, g, h, kind):
        self.generated += 1
        self.kinds[kind] += 1


def test_iddfs_keeps_the_last_iteration_which_equals_dfs_at_that_depth():
    from searchkit.observer import Observers

    problem = Sliding(EASY)
    rec, result, graph = record(iddfs, problem)
    assert result.solved and rec.iterations == result.stats.iterations
    bound = graph.graph["bound"]
    assert bound == result.stats.iterations - 1 == len(result.actions)
    # the last iteration alone, run and counted on its own
    count = LastIteration()
    single = dfs(problem, depth=int(bound), observer=count).stats
    assert graph.number_of_nodes() == 1 + count.generated
    assert graph.number_of_nodes() == 1 + single.generated
    assert expanded_count(graph) == single.expanded
    assert statuses(graph)["duplicate"] == count.kinds["duplicate"] > 0
    check_tree(graph, problem, unit_cost=True)
    check_path(graph, result)
    assert max(d["depth"] for _n, d in graph.nodes(data=True) if d["kind"] in ("root", "new")) <= bound
    alone = TreeRecorder()
    dfs(problem, depth=int(bound), observer=Observers(alone))
    shape = lambda gr: [(d["label"], d["depth"], d["kind"], d["order"] > 0) for _n, d in gr.nodes(data=True)]  # noqa: E731
    assert shape(alone.graph) == shape(graph.copy()) or shape(alone.graph) == shape(rec.graph)


def test_idastar_records_the_last_iteration_with_pruned_children():
    from searchkit.observer import Observers

    problem = Sliding(HARD)
    rec, count = TreeRecorder(), LastIteration()
    result = idastar(problem, observer=Observers(rec, count))
    graph = rec.finish(result)
    assert result.stats.iterations > 1
    assert graph.number_of_nodes() == 1 + count.generated
    assert expanded_count(graph) == count.expanded
    assert statuses(graph)["pruned"] == count.kinds["pruned"] > 0
    bound = graph.graph["bound"]
    for _n, d in graph.nodes(data=True):
        if d["kind"] != "duplicate":
            assert (d["f"] > bound) == (d["kind"] == "pruned")
    check_tree(graph, problem)
    check_path(graph, result)


def test_depth_first_with_repeated_states_on_a_path():
    """A domain that only forbids moving straight back lets a path revisit a state; the
    tree must still hang every child under the frame that generated it."""
    edges = {"s": [("a", 1)], "a": [("b", 1)], "b": [("c", 1)], "c": [("a", 1), ("x", 1)], "x": [("g", 1)], "g": []}
    problem = GraphProblem(edges, "s", ["g"])
    problem.cycle_check = "parent"
    rec = TreeRecorder()
    result = dfs(problem, depth=7, observer=rec)  # the deep copy of "c" fails, the shallow one finds "x"
    graph = rec.finish(result)
    assert result.solved and result.states == ["s", "a", "b", "c", "x", "g"]
    check_tree(graph, problem)
    check_path(graph, result)
    states = [graph.nodes[n]["state"] for n in nx.topological_sort(graph)]
    assert states.count("a") >= 2


def test_bidirectional_search_gives_a_forward_and_a_backward_tree():
    problem = Sliding(MEDIUM)
    rec, result, graph = record(bidirectional_bfs, problem)
    s = result.stats
    roots = [n for n in graph if graph.in_degree(n) == 0]
    assert [graph.nodes[r]["state"] for r in roots] == [problem.start, problem.goal]
    # every generated child, duplicates included, is a tree node
    assert graph.number_of_nodes() == len(roots) + s.generated
    assert expanded_count(graph) == s.expanded
    # each tree is made of real moves (backwards for the goal's tree)
    fwd = nx.descendants(graph, roots[0]) | {roots[0]}
    for u, v in graph.edges:
        pu, pv = graph.nodes[u]["state"], graph.nodes[v]["state"]
        step = problem.successors if u in fwd else problem.predecessors
        assert pv in {t for _a, t, _c in step(pu)}
    on_path = {graph.nodes[n]["state"] for n in graph if graph.nodes[n]["on_path"]}
    assert on_path == set(result.states)
    assert graph.graph["path_matches_result"] is True


def test_start_that_is_a_goal_gives_a_single_marked_root():
    problem = Sliding(tuple(list(range(1, 9)) + [0]))
    for engine in (astar, bfs, idastar):
        _rec, result, graph = record(engine, problem)
        assert graph.number_of_nodes() == 1
        assert graph.nodes[0]["on_path"] and graph.nodes[0]["status"] == "path"


def test_unsolved_search_has_no_path():
    edges = {"s": [("a", 1)], "a": [("s", 1)], "g": []}
    _rec, result, graph = record(astar, GraphProblem(edges, "s", ["g"], {}))
    assert not result.solved
    assert not any(d["on_path"] for _n, d in graph.nodes(data=True))
    assert graph.graph["status"] == "no-solution"


# -- the cap ---------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", [astar, bfs, idastar, bidirectional_bfs], ids=lambda e: e.__name__)
def test_max_nodes_caps_the_tree_and_says_so(engine, tmp_path):
    problem = Sliding(HARD)
    rec, result, graph = record(engine, problem, max_nodes=20)
    assert result.solved  # recording never changes the search
    assert graph.number_of_nodes() == 20
    assert graph.graph["truncated"] and graph.graph["dropped"] > 0
    assert nx.is_forest(graph)
    if engine in (astar, bfs):
        assert graph.graph["dropped"] == 1 + result.stats.generated - 20
        check_tree(graph, problem, check_g=engine is not bfs)
    assert any(d["children_cut"] for _n, d in graph.nodes(data=True))
    # what is marked is the beginning of the result's path
    marked = [graph.nodes[n]["state"] for n in nx.topological_sort(graph) if graph.nodes[n]["on_path"]]
    assert marked and graph.graph["path_matches_result"]
    if engine is bidirectional_bfs:  # from both ends
        assert set(marked) <= set(result.states) and {result.states[0], result.states[-1]} <= set(marked)
    else:
        assert marked == result.states[: len(marked)]
    out = save_tree(graph, tmp_path / "cut.png")
    assert out.stat().st_size > 1000


def test_recorder_rejects_a_silly_cap():
    with pytest.raises(InputError):
        TreeRecorder(max_nodes=0)


def test_labels_come_from_the_label_function():
    problem = Sliding(EASY)
    rec = TreeRecorder(label=lambda s: "".join(map(str, s)))
    graph = rec.finish(astar(problem, observer=rec))
    assert graph.nodes[0]["label"] == "152703846"


# -- layout ----------------------------------------------------------------------------------
@st.composite
def forests(draw):
    n = draw(st.integers(1, 60))
    g = nx.DiGraph()
    g.add_node(0)
    for v in range(1, n):
        parent = draw(st.integers(-1, v - 1)) if v > 1 else 0
        g.add_node(v)
        if parent >= 0:
            g.add_edge(parent, v)
    return g


@settings(max_examples=80, deadline=None)
@given(forests(), st.booleans())
def test_tidy_layout_separates_levels_and_centres_parents(graph, narrow_leaves):
    size = (lambda n: 0.5 if graph.out_degree(n) == 0 else 1.0) if narrow_leaves else None
    pos = tidy_layout(graph, size=size)
    width = {n: size(n) if size else 1.0 for n in graph}
    for n in graph:
        preds = list(graph.predecessors(n))
        depth = 0 if not preds else -pos[preds[0]][1] + 1
        assert pos[n][1] == -depth
        kids = sorted(graph.successors(n))
        if kids:
            assert pos[n][0] == pytest.approx((pos[kids[0]][0] + pos[kids[-1]][0]) / 2)
            xs = [pos[k][0] for k in kids]
            assert xs == sorted(xs)
    by_level = {}
    for n, (x, y) in pos.items():
        by_level.setdefault(y, []).append((x, n))
    for row in by_level.values():
        row.sort()
        for (xa, a), (xb, b) in zip(row, row[1:]):
            assert xb - xa >= (width[a] + width[b]) / 2 - 1e-9


# -- drawing ---------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_pictures_by_suffix(tmp_path, suffix, magic):
    problem = Sliding(EASY)
    _rec, _result, graph = record(astar, problem)
    out = save_tree(graph, tmp_path / f"tree{suffix}", title="8-puzzle", board_labels=lambda s, _a: problem.board(s))
    assert out.read_bytes()[: len(magic)] == magic
    assert [p.name for p in tmp_path.iterdir()] == [f"tree{suffix}"]  # no temporary file left


@pytest.mark.parametrize(
    "engine,board,max_nodes",
    [
        (bfs, MEDIUM, 400),
        (astar, (8, 6, 7, 2, 5, 4, 3, 0, 1), 2000),
        (bidirectional_bfs, MEDIUM, 2000),
        (idastar, MEDIUM, 2000),
    ],
    ids=["bfs-order", "astar-dots", "bidirectional", "idastar"],
)
def test_drawing_every_size_of_tree(tmp_path, engine, board, max_nodes):
    from PIL import Image

    _rec, _result, graph = record(engine, Sliding(board), max_nodes=max_nodes)
    out = save_tree(graph, tmp_path / "t.png", title=engine.__name__)
    with Image.open(out) as im:
        assert im.width >= 700 and im.height >= 300


def test_rendering_is_headless_and_import_is_light(tmp_path):
    code = f"""
import sys
import searchkit, searchkit.render
assert "matplotlib" not in sys.modules and "networkx" not in sys.modules, "heavy import"
from searchkit import GraphProblem, astar
from searchkit.render import TreeRecorder, save_tree
p = GraphProblem({{"s": [("a", 1), ("b", 2)], "a": [("g", 1)], "b": []}}, "s", ["g"])
rec = TreeRecorder()
save_tree(rec.finish(astar(p, observer=rec)), {str(tmp_path / "x.png")!r})
import matplotlib
assert "pyplot" not in str(list(sys.modules)), "pyplot imported"
print("ok")
"""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # no DISPLAY, no MPLBACKEND
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "x.png").exists()


def test_unknown_suffix_and_missing_directory_are_input_errors(tmp_path):
    graph = TreeRecorder().finish(None)
    with pytest.raises(InputError, match="use one of"):
        save_tree(graph, tmp_path / "tree.jpg")
    with pytest.raises(InputError, match="does not exist"):
        save_tree(graph, tmp_path / "nope" / "tree.png")


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    problem = Sliding(EASY)
    _rec, _result, graph = record(astar, problem)

    def broken(state, action):
        raise RuntimeError("boom")

    target = tmp_path / "tree.png"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        save_tree(graph, target, board_labels=broken)
    assert [p.name for p in tmp_path.iterdir()] == ["tree.png"]
    assert target.read_bytes() == b"old"


# -- exports ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def solved_tree():
    problem = GraphProblem(
        {'s "x"': [("a:1", 1), ("b\nc", 2)], "a:1": [("g", 2), ('s "x"', 1)], "b\nc": [("g", 1)], "g": []},
        's "x"',
        ["g"],
        {'s "x"': 2, "a:1": 2, "b\nc": 1, "g": 0},
    )
    rec = TreeRecorder()
    result = astar(problem, observer=rec)
    return rec.finish(result), result


def check_read_back(original, back, int_ids=True):
    assert back.number_of_nodes() == original.number_of_nodes()
    assert back.number_of_edges() == original.number_of_edges()
    key = (lambda n: n) if int_ids else str
    for n, d in original.nodes(data=True):
        b = back.nodes[key(n)]
        assert b["label"] == d["label"]
        assert float(b["g"]) == d["g"] and float(b["f"]) == d["f"]
        assert b["status"] == d["status"]
        assert int(b["order"]) == d["order"]
    for u, v, d in original.edges(data=True):
        assert back.edges[key(u), key(v)]["action"] == d["action"]


def test_graphml_reads_back(tmp_path, solved_tree):
    graph, _ = solved_tree
    out = save_tree(graph, tmp_path / "t.graphml")
    back = nx.read_graphml(out, node_type=int)
    check_read_back(graph, back)
    assert back.graph["truncated"] is False
    assert sum(1 for _n, d in back.nodes(data=True) if d["on_path"]) == 3


def test_gexf_reads_back_with_layout(tmp_path, solved_tree):
    graph, _ = solved_tree
    out = save_tree(graph, tmp_path / "t.gexf")
    back = nx.read_gexf(out, node_type=int)
    check_read_back(graph, back)
    assert all("position" in d["viz"] for _n, d in back.nodes(data=True))


def test_json_is_node_link_with_edges_key(tmp_path, solved_tree):
    graph, _ = solved_tree
    out = save_tree(graph, tmp_path / "t.json")
    data = json.loads(out.read_text())
    assert "edges" in data and "links" not in data
    back = nx.node_link_graph(data, edges="edges")
    check_read_back(graph, back)


def test_dot_reads_back_without_graphviz(tmp_path, solved_tree):
    graph, _ = solved_tree
    out = save_tree(graph, tmp_path / "t.dot", title='tree "quoted"')
    text = out.read_text()
    assert text.startswith("strict digraph") and "penwidth" in text
    back = nx.nx_pydot.read_dot(out)
    assert back.number_of_nodes() == graph.number_of_nodes()
    assert back.number_of_edges() == graph.number_of_edges()

    def unquote(text):
        if text.startswith('"') and text.endswith('"'):
            text = text[1:-1]
        return text.replace('\\"', '"').replace("\\n", "\n")

    assert {unquote(d["label"]) for _n, d in back.nodes(data=True)} == {d["label"] for _n, d in graph.nodes(data=True)}
    assert {unquote(d["action"]) for _u, _v, d in back.edges(data=True)} == {
        d["action"] for _u, _v, d in graph.edges(data=True)
    }


def test_exports_drop_raw_states_and_keep_plain_types(tmp_path, solved_tree):
    graph, _ = solved_tree
    from searchkit.render.export import plain_copy

    plain = plain_copy(graph)
    for _n, d in plain.nodes(data=True):
        assert "state" not in d
        assert all(isinstance(v, (str, int, float, bool)) for v in d.values())
    assert "state" in graph.nodes[0]  # the original keeps it for drawing


def test_infinite_h_survives_the_exports(tmp_path):
    problem = GraphProblem({"s": [("d", 1), ("g", 3)], "d": [], "g": []}, "s", ["g"], {"s": 0, "d": math.inf, "g": 0})
    rec = TreeRecorder()
    graph = rec.finish(astar(problem, observer=rec))
    for suffix in (".graphml", ".json", ".png"):
        save_tree(graph, tmp_path / f"t{suffix}")
    back = nx.read_graphml(tmp_path / "t.graphml", node_type=int)
    assert math.inf in {d["h"] for _n, d in back.nodes(data=True)}


# -- the real n-puzzle plugin ----------------------------------------------------------------------
def test_npuzzle_plugin_tree_counts_match():
    from searchkit import solving

    job = solving.prepare("npuzzle", {"size": 3, "board": "1 2 3 4 5 6 0 7 8"}, "astar", "manhattan")
    rec = TreeRecorder()
    result = solving.execute(job, observer=rec)
    graph = rec.finish(result)
    assert graph.number_of_nodes() == 1 + result.stats.generated
    assert expanded_count(graph) == result.stats.expanded
    assert sum(1 for _n, d in graph.nodes(data=True) if d["on_path"]) == len(result.states)
