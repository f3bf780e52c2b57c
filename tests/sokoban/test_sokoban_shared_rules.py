"""The rules written once for the compiled kernels and the Python searches (`freeze_rule`,
`corral_rule`, `matching_rule`), each against an oracle written here from its definition.

The whole module runs twice: compiled (numba installed) and, in a subprocess with
``SEARCHKIT_NO_NUMBA=1``, as plain Python (`test_the_same_checks_pass_as_plain_python`).
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from searchkit_sokoban.board import Board, bits, flood, mask_of
from searchkit_sokoban.board_arrays import BoardArrays
from searchkit_sokoban.corral import pi_corral_boxes
from searchkit_sokoban.corral_rule import pi_corral
from searchkit_sokoban.deadlocks import frozen_group, frozen_off_goals
from searchkit_sokoban.freeze_rule import STAMP, freeze_dead, frozen_boxes
from searchkit_sokoban.levels import load_level
from searchkit_sokoban.matching_rule import BIG, child_h, parent_assignment, row_matching

from searchkit import NO_NUMBA_ENV, numba_available

PLAIN = bool(os.environ.get(NO_NUMBA_ENV))


def test_the_rules_run_compiled_or_plain_as_the_switch_says():
    compiled = hasattr(frozen_boxes, "py_func")
    assert compiled == numba_available() and all(
        hasattr(f, "py_func") == compiled for f in (freeze_dead, row_matching, child_h, parent_assignment)
    )
    if compiled:
        from searchkit_sokoban import push_kernel

        assert push_kernel.M_STAMP == STAMP  # the freeze rule's mark counter is the kernel's


@pytest.mark.skipif(PLAIN or not numba_available(), reason="the subprocess is started from the compiled run")
def test_the_same_checks_pass_as_plain_python():
    # the tests that concern compiled code skip there: CI's rule against skips is for this run
    env = {**{k: v for k, v in os.environ.items() if k != "CI"}, NO_NUMBA_ENV: "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", __file__]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


# -- the freeze rule -------------------------------------------------------------------


def _grid(rng: random.Random, w: int, h: int):
    """A random room: ``nbr`` (up, down, left, right; -1 a wall), boxes, dead squares, goals."""
    wall = [x < w or x >= w * (h - 1) or x % w in (0, w - 1) or rng.random() < 0.15 for x in range(w * h)]
    nbr = np.full((w * h, 4), -1, np.int64)
    for x in range(w * h):
        if not wall[x]:
            for k, o in enumerate((-w, w, -1, 1)):
                if not wall[x + o]:
                    nbr[x, k] = x + o
    floor = [x for x in range(w * h) if not wall[x]]
    occ = np.zeros(w * h, np.uint8)
    dead = np.zeros(w * h, np.uint8)
    goal = np.zeros(w * h, np.uint8)
    for x in floor:
        occ[x] = rng.random() < 0.45
        dead[x] = rng.random() < 0.2
        goal[x] = rng.random() < 0.5
    return nbr, occ, dead, goal


def _group(nbr, occ, dst) -> list[int]:
    """The boxes joined to ``dst`` through neighbouring boxes."""
    group, todo = {dst}, [dst]
    while todo:
        x = todo.pop()
        for y in nbr[x]:
            if y >= 0 and occ[y] and y not in group:
                group.add(int(y))
                todo.append(int(y))
    return sorted(group)


def _frozen_oracle(nbr, dead, group) -> set[int]:
    """The definition: a box never moves when some set of boxes holds it in which every box
    has both axes blocked by a wall, dead squares on both sides or a box of the set; the
    union of all such subsets of ``group``, tried one by one."""
    frozen: set[int] = set()
    for size in range(1, len(group) + 1):
        for subset in itertools.combinations(group, size):
            held = set(subset)
            if all(
                all(
                    a < 0 or b < 0 or (dead[a] and dead[b]) or a in held or b in held
                    for a, b in ((nbr[x, 0], nbr[x, 1]), (nbr[x, 2], nbr[x, 3]))
                )
                for x in held
            ):
                frozen |= held
    return frozen


def test_the_freeze_rule_leaves_frozen_exactly_the_boxes_the_definition_names():
    rng = random.Random(76)
    checked = fired = 0
    while checked < 300:
        nbr, occ, dead, goal = _grid(rng, rng.randint(4, 7), rng.randint(4, 7))
        boxes = np.flatnonzero(occ)
        if not len(boxes):
            continue
        dst = int(rng.choice(boxes))
        group = _group(nbr, occ, dst)
        if len(group) > 9:
            continue
        expected = _frozen_oracle(nbr, dead, group)
        seen, members = np.zeros(len(occ), np.int64), np.zeros(len(occ), np.int64)
        n = frozen_boxes(dst, occ, nbr, dead, seen, 5, members)
        assert sorted(members[:n].tolist()) == group
        assert {int(x) for x in members[:n] if seen[x] == 5} == expected
        meta = np.zeros(STAMP + 1, np.int64)
        dead_now = freeze_dead(dst, occ, nbr, dead, goal, np.zeros(len(occ), np.int64), meta, members)
        assert dead_now == any(not goal[x] for x in expected) and meta[STAMP] == 1
        checked += 1
        fired += bool(expected)
    assert 30 < fired < 270  # the cases are mixed


@pytest.mark.parametrize("name", ["microban:93", "xsokoban:1"])
def test_the_python_searches_freeze_test_is_the_rule(name):
    board = Board(load_level(name))
    floor = bits(board.floor)
    rng = random.Random(name)
    nbr = np.full((board.size, 4), -1, np.int64)
    for x in floor:
        for k, o in enumerate(board.offsets):
            if board.floor >> (x + o) & 1:
                nbr[x, k] = x + o
    dead = np.array(board.is_dead, np.uint8)
    for _ in range(200):
        boxes = mask_of(rng.sample(floor, rng.randint(1, len(floor) // 2)))
        dst = rng.choice(bits(boxes))
        occ = np.array([boxes >> x & 1 for x in range(board.size)], np.uint8)
        group = _group(nbr, occ, dst)
        if len(group) > 9:
            continue
        expected = _frozen_oracle(nbr, dead, group)
        assert frozen_group(dst, boxes, board) == sorted(expected)
        assert frozen_off_goals(dst, boxes, board, sealed=False) == any(not board.is_goal[x] for x in expected)


# -- PI-corrals ------------------------------------------------------------------------


def _corrals_oracle(board, boxes: int, reach: int) -> list[tuple[int, int]]:
    """Every unsolved PI-corral as ``(barrier, inward pushes)``, from the definition square
    by square: areas of unreachable floor joined while they share a box beside them; I: no
    push the player can make now takes a barrier box off the corral and its barrier; P: no
    box off the barrier stands where a pusher of a barrier box would (onto a square that is
    not the barrier's)."""
    floor, goals, size = board.floor, board.goals, board.size
    unreach = floor & ~boxes & ~reach
    areas = []
    rest = unreach
    while rest:
        area = flood(rest & -rest, unreach, board.width)
        areas.append(area)
        rest &= ~area

    def beside(area: int) -> int:
        return mask_of(b for b in bits(boxes) if any(0 <= b + o < size and area >> (b + o) & 1 for o in board.offsets))

    corrals = [[a, beside(a)] for a in areas]
    merged = True
    while merged:
        merged = False
        for i, j in itertools.combinations(range(len(corrals)), 2):
            if corrals[i][1] & corrals[j][1]:
                corrals[i] = [corrals[i][0] | corrals[j][0], corrals[i][1] | corrals[j][1]]
                del corrals[j]
                merged = True
                break
    out = []
    for area, barrier in corrals:
        if not area & goals and not barrier & ~goals:
            continue  # solved
        pushes, fails = 0, False
        for b in bits(barrier):
            for o in board.offsets:
                dst, pusher = b + o, b - o
                if not (floor >> dst & 1 and floor >> pusher & 1) or board.is_dead[dst]:
                    continue
                barrier_dst = barrier >> dst & 1
                if reach >> pusher & 1:
                    if area >> dst & 1:
                        pushes += 1
                    elif not barrier_dst:
                        fails = True
                elif boxes >> pusher & 1 and not barrier >> pusher & 1 and not barrier_dst:
                    fails = True
        if not fails:
            out.append((barrier, pushes))
    return out


@pytest.mark.parametrize("name", ["microban:5", "microban:93", "microban:140", "xsokoban:1"])
def test_the_pi_corral_found_is_one_with_the_fewest_inward_pushes(name):
    board = Board(load_level(name))
    floor = bits(board.floor)
    rng = random.Random(name)
    kinds = set()
    for _ in range(300):
        boxes = mask_of(rng.sample(floor, rng.randint(1, max(1, len(floor) // 3))))
        free = [x for x in floor if not boxes >> x & 1]
        if not free:
            continue
        reach = flood(1 << rng.choice(free), board.floor & ~boxes, board.width)
        corrals = _corrals_oracle(board, boxes, reach)
        found = pi_corral_boxes(board, boxes, reach, True)
        if not corrals:
            assert found is None
            kinds.add("none")
        elif min(p for _, p in corrals) == 0:
            assert found == 0
            kinds.add("dead")
        else:
            assert (found, min(p for _, p in corrals)) in corrals
            kinds.add("corral")
    assert kinds == {"none", "dead", "corral"}


@pytest.mark.parametrize("name", ["microban:93", "microban:140", "xsokoban:1"])
def test_the_kernels_entry_and_the_python_searches_find_the_same_corral(name):
    # the kernels' entry floods the areas itself over every box; the Python searches' plain
    # path hands `corral_of` areas flooded bit-parallel and only the boxes beside them
    board = Board(load_level(name))
    arrays = BoardArrays(board, plain=False)
    floor = bits(board.floor)
    rng = random.Random(name)
    for _ in range(200):
        boxes = mask_of(rng.sample(floor, rng.randint(1, max(1, len(floor) // 3))))
        free = [x for x in floor if not boxes >> x & 1]
        if not free:
            continue
        reach = flood(1 << rng.choice(free), board.floor & ~boxes, board.width)
        occ = arrays.occupancy(boxes)
        boxlist = np.flatnonzero(occ)
        group = np.zeros(board.size, np.int64)
        root = pi_corral(
            occ, arrays.occupancy(reach), 1, arrays.nbr, arrays.floor, arrays.dead, arrays.goal, boxlist,
            len(boxlist), np.zeros(board.size, np.int64), np.zeros(board.size, np.int64), group,
            np.zeros(2 * board.size + 2, np.int64),
        )  # fmt: skip
        expected = {-1: None, -2: 0}.get(root, mask_of(b for b in bits(boxes) if group[b] == root))
        assert pi_corral_boxes(board, boxes, reach, True) == expected


# -- the matching bound ----------------------------------------------------------------


def _assignment_oracle(rows: list[list[int]]) -> int:
    """The least sum over assignments of the rows to distinct columns, tried one by one."""
    return min(sum(r[j] for r, j in zip(rows, cols)) for cols in itertools.permutations(range(len(rows[0])), len(rows)))


def test_row_matching_is_the_least_assignment_along_a_search_of_siblings():
    rng = random.Random(7)
    for trial in range(40):
        m = rng.randint(1, 6)
        nkeys = rng.randint(m, m + 6)
        rows = [[BIG if rng.random() < 0.2 else rng.randint(0, 9) for _ in range(m)] for _ in range(nkeys)]
        near = [min(r) for r in rows]
        table = np.column_stack((np.array(rows, np.int64), near, [r.index(v) for r, v in zip(rows, near)]))
        table = table.astype(np.int64)
        cost, ints, where = (
            np.zeros((m + 1, m + 1), np.int64),
            np.zeros((11, m + 1), np.int64),
            np.zeros(nkeys, np.int64),
        )
        keys = rng.sample(range(nkeys), rng.randint(1, m))
        for _ in range(25):  # siblings: a key or two changed, now and then a set afresh
            if rng.random() < 0.2:
                keys = rng.sample(range(nkeys), rng.randint(1, m))
            else:
                spare = [k for k in range(nkeys) if k not in keys]
                for _ in range(rng.randint(1, 2)):
                    if spare:
                        keys[rng.randrange(len(keys))] = spare.pop(rng.randrange(len(spare)))
            ints[6, : len(keys)] = keys
            total = row_matching(table, cost, ints, where, len(keys), m)
            expected = _assignment_oracle([rows[k] for k in keys])
            assert min(total, BIG) == min(expected, BIG), (trial, keys)


def test_a_childs_bound_from_its_parents_assignment_is_the_least_assignment():
    rng = random.Random(11)
    for _ in range(60):
        n, size = rng.randint(1, 6), 20
        dist = np.array(
            [[BIG if rng.random() < 0.15 else rng.randint(0, 9) for _ in range(n)] for _ in range(size * 4)], np.int64
        )
        comp = np.zeros((size, size), np.int8)
        boxlist = np.array(sorted(rng.sample(range(size), n)), np.int64)
        cost, base = np.zeros((n + 1, n + 1), np.int64), np.zeros((n + 1, n + 1), np.int64)
        ints, used = np.zeros((9, n + 1), np.int64), np.zeros(n + 1, np.bool_)
        total = parent_assignment(n, boxlist, dist, comp, 0, cost, base, ints, used)
        assert min(total, BIG) == min(_assignment_oracle([list(dist[b * 4]) for b in boxlist]), BIG)
        for _ in range(8):  # siblings: one box moved each
            bi = rng.randrange(n)
            src = int(boxlist[bi])
            dst = rng.choice([x for x in range(size) if x not in boxlist])
            boxlist[bi] = dst
            h = child_h(n, boxlist, bi, src, 0, dist, comp, cost, base, ints, used)
            assert min(h, BIG) == min(_assignment_oracle([list(dist[b * 4]) for b in boxlist]), BIG)
            boxlist[bi] = src


# -- loaded ahead ----------------------------------------------------------------------


@pytest.mark.skipif(PLAIN or not numba_available(), reason="loading concerns the compiled rules")
def test_the_warm_up_loads_the_rules_the_python_searches_call():
    # a fresh process: the rules have code for Python's calls after the warm-up alone, so a
    # benchmark's forked workers load none of it
    code = (
        "from searchkit_sokoban.engines import warm_up_rules\n"
        "from searchkit_sokoban.corral_rule import pi_corral\n"
        "from searchkit_sokoban.freeze_rule import freeze_dead, frozen_boxes\n"
        "before = [len(f.overloads) for f in (frozen_boxes, freeze_dead, pi_corral)]\n"
        "warm_up_rules()\n"
        "print(before, [len(f.overloads) for f in (frozen_boxes, freeze_dead, pi_corral)])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["[0,", "0,", "0]", "[1,", "1,", "1]"]


def test_importing_the_searches_leaves_numba_unimported_till_a_rule_is_asked():
    # numba's import waits for the first board's arrays: a command that searches nothing
    # (listing engines, drawing a level) never pays it
    code = (
        "import sys\n"
        "from searchkit_sokoban import corral, deadlocks, engines, problem\n"
        "print('numba' in sys.modules)\n"
        "from searchkit_sokoban.board import Board\n"
        "from searchkit_sokoban.levels import load_level\n"
        "board = Board(load_level('microban:1'))\n"
        "deadlocks.frozen_group(board.start_boxes.bit_length() - 1, board.start_boxes, board)\n"
        "print('numba' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", str(numba_available() and not PLAIN)]
