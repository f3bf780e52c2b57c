"""Tunnel macros: a box pushed along a one-wide tunnel goes on through it in one step."""

from __future__ import annotations

import random

import pytest
from searchkit_sokoban.board import Board, bits
from searchkit_sokoban.levels import parse_level
from searchkit_sokoban.lurd import replay_lurd, to_lurd
from searchkit_sokoban.problem import SokobanProblem

from searchkit import Limits, dijkstra, greedy

CORRIDOR = """\
###########
# $      .#
#@ ########
###"""


def test_tunnel_squares_are_walled_across_the_push():
    b = Board(parse_level(CORRIDOR))
    w = b.width
    assert [x - w for x in bits(b.tunnel[1])] == list(range(3, 10))  # row 1 from column 3
    assert b.tunnel[0] == 0  # no square walled on its left and right


def test_macro_pushes_through_to_the_goal_and_replays():
    b = Board(parse_level(CORRIDOR))
    plain = SokobanProblem(b, "nearest-goal")
    macro = SokobanProblem(b, "nearest-goal", tunnels=True)
    ((push, after_one, cost),) = macro.successors(macro.initial_state())
    assert push.count == cost == 1  # the player is not in the tunnel before this push
    ((push, child, cost),) = macro.successors(after_one)
    assert push.count == cost == 6 and str(push) == "Rx6@2,4"  # on to the goal, in one step
    assert child[0] == b.goals
    r1 = greedy(plain, limits=Limits(timeout_s=10))
    r2 = greedy(macro, limits=Limits(timeout_s=10))
    assert r1.cost == r2.cost == 7 and (len(r1.actions), len(r2.actions)) == (7, 2)
    assert replay_lurd(b.level, to_lurd(b, r2.actions)).pushes == 7


def test_macro_stops_on_a_goal_and_before_a_frozen_square():
    b = Board(parse_level("#########\n#@$ .  #\n#########"))
    p = SokobanProblem(b, "nearest-goal", tunnels=True)
    ((push, child, _c),) = p.successors(p.initial_state())
    assert push.count == 2 and child[0] == b.goals  # stops on the goal, not in the corner beyond
    # (a dead level: the player never gets past the first box, as the corral proofs see,
    # so corral pruning is off to look at the macro alone)
    b = Board(parse_level("#########\n#@$  $..#\n###### ##\n     ###"))
    p = SokobanProblem(b, "nearest-goal", frozenset({"corral"}), tunnels=True)
    pushes = {a.square: a for a, _s, _c in p.successors(p.initial_state())}
    assert pushes[b.width + 2].count == 1  # not on to column 4: frozen against the box on 5


def _carved_level(rng: random.Random) -> str | None:
    """A small random level carved by random walks, so one-wide tunnels are common."""
    h, w = rng.randint(3, 6), rng.randint(4, 8)
    grid = [["#"] * (w + 2) for _ in range(h + 2)]
    r, c = rng.randint(1, h), rng.randint(1, w)
    dr, dc = 0, 1
    for _ in range(rng.randint(8, 20)):
        grid[r][c] = " "
        if rng.random() < 0.35:  # turn now and then: long straight corridors
            dr, dc = rng.choice(((0, 1), (0, -1), (1, 0), (-1, 0)))
        r, c = min(h, max(1, r + dr)), min(w, max(1, c + dc))
    free = [(i, j) for i in range(1, h + 1) for j in range(1, w + 1) if grid[i][j] == " "]
    boxes = rng.randint(1, 2)
    if len(free) < 2 * boxes + 2:
        return None
    pick = rng.sample(free, 2 * boxes + 1)
    for i, j in pick[:boxes]:
        grid[i][j] = "$"
    for i, j in pick[boxes : 2 * boxes]:
        grid[i][j] = "."
    i, j = pick[-1]
    grid[i][j] = "@"
    return "\n".join("".join(row) for row in grid)


def test_macros_never_lose_a_solution_nor_a_push():
    """Exhaustive uniform-cost search with and without macros on tiny levels: same status,
    same push count (macros are only used without --optimal; this checks they cost nothing)."""
    rng = random.Random(7)
    checked = fired = 0  # fired: levels where the macro changed the search
    while checked < 300:
        text = _carved_level(rng)
        if text is None:
            continue
        b = Board(parse_level(text))
        if b.impossible or not (b.tunnel[0] | b.tunnel[1]):
            continue
        checked += 1
        outcome = []
        for tunnels in (False, True):
            p = SokobanProblem(b, None, frozenset(), tunnels=tunnels)
            r = dijkstra(p, limits=Limits(max_expanded=100000))
            outcome.append((r.status, r.cost, r.stats.generated))
            if tunnels and r.solved:
                assert replay_lurd(b.level, to_lurd(b, r.actions)).pushes == r.cost
        assert outcome[0][:2] == outcome[1][:2], text
        fired += outcome[0][2] != outcome[1][2]
    assert fired >= 5  # the generator does exercise the macro (on levels not proved dead at once)


@pytest.mark.parametrize("optimal", [False, True])
def test_domain_uses_macros_only_without_optimal(optimal):
    from searchkit.solving import prepare

    job = prepare("sokoban", {"level_file": "microban:1", "optimal": optimal}, None, None)
    assert job.problem.use_tunnels is not optimal
