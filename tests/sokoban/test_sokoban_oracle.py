"""An independent oracle for Sokoban's push generator (`SokobanProblem.successors`).

The oracle is the rules of the game written out here on ``(row, column)`` squares, with
nothing of the plugin's move generation, deadlock or access code: the player walks over
the floor without boxes (a breadth-first fill), a box beside a square he reaches can be
pushed on when the square beyond it is floor without a box, and the push leaves the box one
square on and the player where the box stood.  Its dead-square rule is as plain: a box
pushed onto a square that is no goal is dead when no sequence of pulls of a lone box (walls
only) from a goal brings it there with the player on the side of it he is on.

The generator is compared with it position by position, under the pruning switches:

* every detector off (``--no-deadlock all``, no heuristic): exactly the oracle's pushes,
  each with the oracle's child (the player on the lowest square of his region) and cost, in
  pushes mode and in moves mode (the player exact, a push costing the walk to it plus one);
* dead squares alone: exactly the oracle's pushes whose child its dead-square rule keeps;
* the default (every detector but the cluster proofs, the matching heuristic): only legal
  pushes with the oracle's children, none onto a square the rule calls dead; and, over the
  whole push graph of a small level, the same verdict (solvable or not) and the same
  fewest pushes as the oracle's own breadth-first search at every position it reaches, and
  a push towards the goal kept at every solvable position.

Small levels are also explored whole both ways (every detector off): the same positions and
the same pushes between them.  Positions: random walled rooms, Microban levels with walls,
boxes, goals and the player moved about, and Microban's own levels at their starts and after
random pushes.  The meta-tests break the generator (a dropped push, an illegal one, a child
with the player misplaced, pruning too much or too little) and check that the comparison
says so.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any, NamedTuple

import pytest
from fuzzing import PROFILES, Profile
from hypothesis import assume
from hypothesis import strategies as st
from searchkit_sokoban.board import Board
from searchkit_sokoban.deadlocks import parse_disabled
from searchkit_sokoban.levels import bundled_text, parse_level, parse_levels
from searchkit_sokoban.problem import SokobanProblem

from searchkit import InputError

Square = tuple[int, int]
Boxes = frozenset[Square]
Position = tuple[Boxes, Square]
LETTERS = "udlr"  # the order of an action's ``direction`` index
STEP = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
MICROBAN = parse_levels(bundled_text("microban"))


# -- the oracle: the rules of the game -----------------------------------------------------------
def on(square: Square, letter: str, times: int = 1) -> Square:
    """The square ``times`` steps from ``square`` in direction ``letter``."""
    dr, dc = STEP[letter]
    return square[0] + dr * times, square[1] + dc * times


def walks(start: Square, free: frozenset[Square]) -> dict[Square, int]:
    """The fewest steps from ``start`` to each square of ``free`` the player can walk to."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for letter in LETTERS:
            there = on(here, letter)
            if there in free and there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


def lowest(start: Square, free: frozenset[Square]) -> Square:
    """The first square, in reading order, of the part of ``free`` the player on ``start`` reaches."""
    return min(walks(start, free))


@dataclass(frozen=True)
class Room:
    """A level read from its characters: ``floor`` the squares the player can walk to with
    the boxes taken away, the goals and boxes on it, and the player's start."""

    floor: frozenset[Square]
    goals: frozenset[Square]
    boxes: Boxes
    player: Square


def read_room(rows: Sequence[str]) -> Room | None:
    """The room of a level's rows, or None when a box off its goal or a goal without its box
    lies where the player can never come (a level nobody can solve; a box on its goal there
    is as good as a wall)."""
    walls, boxes, goals = set(), set(), set()
    player = (-1, -1)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                walls.add((r, c))
            if ch in "$*":
                boxes.add((r, c))
            if ch in ".+*":
                goals.add((r, c))
            if ch in "@+":
                player = (r, c)
    width = max(len(row) for row in rows)
    open_squares = frozenset((r, c) for r in range(len(rows)) for c in range(width)) - walls
    floor = frozenset(walks(player, open_squares))
    if (boxes ^ goals) - floor:
        return None
    return Room(floor, frozenset(goals) & floor, frozenset(boxes) & floor, player)


class Push(NamedTuple):
    """The box on ``box`` pushed one square in direction ``letter``."""

    box: Square
    letter: str


class Child(NamedTuple):
    """After a push: the boxes, the player (on the square the box left), and the steps the
    player walked to the square behind the box."""

    boxes: Boxes
    player: Square
    walk: int


def legal_pushes(room: Room, boxes: Boxes, player: Square) -> dict[Push, Child]:
    """Every push the player on ``player`` can make, walking first, and where it leads."""
    out = {}
    for stand, steps in walks(player, room.floor - boxes).items():
        for letter in LETTERS:
            box = on(stand, letter)
            beyond = on(box, letter)
            if box in boxes and beyond in room.floor and beyond not in boxes:
                out[Push(box, letter)] = Child(boxes - {box} | {beyond}, box, steps)
    return out


def oracle_children(room: Room, position: Position) -> list[Position]:
    """The positions one push from ``position``, the player on the lowest square of his region."""
    boxes, player = position
    return [(c.boxes, lowest(c.player, room.floor - c.boxes)) for c in legal_pushes(room, boxes, player).values()]


def start_of(room: Room) -> Position:
    return room.boxes, lowest(room.player, room.floor - room.boxes)


def live_sides(room: Room) -> frozenset[tuple[Square, Square]]:
    """``(box, side)`` for a lone box (walls only) from which some pushes bring it onto a goal
    with the player first in the part of the floor without the box whose lowest square is
    ``side``: found backwards, pulling a lone box away from every goal from every side."""

    def side(box: Square, player: Square) -> Square:
        return lowest(player, room.floor - {box})

    seen = {(g, side(g, p)) for g in room.goals for p in (on(g, k) for k in LETTERS) if p in room.floor}
    queue = deque(seen)
    while queue:
        box, rep = queue.popleft()
        reach = walks(rep, room.floor - {box})
        for letter in LETTERS:
            stand, back = on(box, letter), on(box, letter, 2)
            # the player on ``stand`` steps back to ``back``, pulling the box onto ``stand``
            if stand in reach and back in room.floor:
                before = (stand, side(stand, back))
                if before not in seen:
                    seen.add(before)
                    queue.append(before)
    return frozenset(seen)


def alive(room: Room, live: frozenset[tuple[Square, Square]], push: Push, child: Child) -> bool:
    """The oracle's dead-square rule for a push: the box it moved is on a goal, or could
    reach one alone from the player's side of it."""
    moved = on(push.box, push.letter)
    return moved in room.goals or (moved, lowest(child.player, room.floor - {moved})) in live


def random_positions(room: Room, rng: random.Random, count: int) -> list[Position]:
    """The start and ``count - 1`` positions after random pushes from it (back to the start
    when no push is left), the player now and then walked to a random square he reaches."""
    boxes, player = room.boxes, room.player
    out = [(boxes, player)]
    while len(out) < count:
        pushes = legal_pushes(room, boxes, player)
        if not pushes:
            boxes, player = room.boxes, room.player
        else:
            child = pushes[rng.choice(sorted(pushes))]
            boxes, player = child.boxes, child.player
            if rng.random() < 0.3:
                player = rng.choice(sorted(walks(player, room.floor - boxes)))
        out.append((boxes, player))
    return out


# -- the generator under test, and what the oracle demands of it ----------------------------------
@dataclass(frozen=True)
class Mode:
    """How the generator is built (heuristic, ``--no-deadlock`` detectors, what to optimize)
    and what the oracle demands: ``complete``, every legal push it keeps is generated;
    ``pruned``, it keeps only the pushes its dead-square rule calls alive (else all)."""

    name: str
    heuristic: str | None
    disabled: frozenset[str]
    optimize: str
    complete: bool
    pruned: bool


EVERY = parse_disabled("all")  # --no-deadlock all
NO_PRUNING = Mode("no pruning", None, EVERY, "pushes", complete=True, pruned=False)
NO_PRUNING_MOVES = Mode("no pruning, moves", None, EVERY, "moves", complete=True, pruned=False)
DEAD_SQUARES = Mode("dead squares", None, EVERY - {"dead-squares"}, "pushes", complete=True, pruned=True)
DEFAULT = Mode("default", "matching", frozenset(), "pushes", complete=False, pruned=True)
MODES = (NO_PRUNING, NO_PRUNING_MOVES, DEAD_SQUARES, DEFAULT)


class Case:
    """A level under test: its text, the oracle's room and live sides, and the generator
    under each mode (one `Board` for all)."""

    def __init__(self, text: str):
        self.text = text
        room = read_room(text.splitlines())
        assert room is not None, "a level nobody can solve (a box or goal sealed off)"
        self.room = room
        self.board = Board(parse_level(text))
        self.live = live_sides(room)
        self._problems: dict[Mode, SokobanProblem] = {}

    def problem(self, mode: Mode) -> SokobanProblem:
        if mode not in self._problems:
            self._problems[mode] = SokobanProblem(self.board, mode.heuristic, mode.disabled, mode.optimize)
        return self._problems[mode]

    def encode(self, position: Position) -> tuple[int, int]:
        """The generator's state of a position: bit sets of ``row * width + column``."""
        w = self.board.width
        boxes, (r, c) = position
        return sum(1 << (br * w + bc) for br, bc in boxes), r * w + c

    def decode(self, state: tuple[int, int]) -> Position:
        w = self.board.width
        mask, player = state
        return frozenset(divmod(x, w) for x in range(mask.bit_length()) if mask >> x & 1), divmod(player, w)

    def normal(self, position: Position, mode: Mode) -> Position:
        """The position as the generator's state keeps it: in pushes mode the player on the
        lowest square of his region."""
        boxes, player = position
        return position if mode.optimize == "moves" else (boxes, lowest(player, self.room.floor - boxes))


def differences(case: Case, mode: Mode, position: Position, problem: SokobanProblem | None = None) -> list[str]:
    """What the generator (``problem``, else the case's under ``mode``) gets wrong at one
    position (the player exact) by the oracle's rules and ``mode``'s demands; [] when nothing."""
    room = case.room
    problem = problem or case.problem(mode)
    boxes = position[0]
    legal = legal_pushes(room, *position)
    state = case.encode(case.normal(position, mode))
    where = f"{mode.name}, boxes {sorted(boxes)}, player {position[1]}:"
    out = []
    if problem.is_goal(state) != (boxes == room.goals):
        out.append(f"{where} is_goal says {problem.is_goal(state)}")
    found: dict[Push, tuple[Position, Any]] = {}
    for action, child, cost in problem.successors(state):
        push = Push(divmod(action.square, case.board.width), LETTERS[action.direction])
        if action.count != 1 or push in found:
            out.append(f"{where} {action} is not one new push of one box")
        found[push] = (case.decode(child), cost)
    for push, (got, cost) in found.items():
        child = legal.get(push)
        if child is None:
            out.append(f"{where} {push} is illegal")
            continue
        want = case.normal((child.boxes, child.player), mode)
        if got != want:
            out.append(f"{where} {push} leads to {got}, not {want}")
        if cost != (child.walk + 1 if mode.optimize == "moves" else 1):
            out.append(f"{where} {push} costs {cost} (a walk of {child.walk})")
        if mode.pruned and not alive(room, case.live, push, child):
            out.append(f"{where} {push} puts a box on a dead square, kept")
    if mode.complete:
        for push, child in legal.items():
            if push not in found and (not mode.pruned or alive(room, case.live, push, child)):
                out.append(f"{where} {push} dropped")
    return out


def push_for_push(case: Case, positions: Iterable[Position], modes: Sequence[Mode] = MODES) -> None:
    """Assert that the generator agrees with the oracle at every position under every mode."""
    wrong = [d for p in positions for mode in modes for d in differences(case, mode, p)]
    assert not wrong, f"{len(wrong)} differences on\n{case.text}\n" + "\n".join(wrong[:10])


# -- whole push graphs -----------------------------------------------------------------------------
def explore(start: Hashable, children: Callable[[Any], Iterable[Any]]) -> dict[Any, frozenset[Any]]:
    """Every node reachable from ``start`` with its children (breadth-first)."""
    graph: dict[Any, frozenset[Any]] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        graph[node] = frozenset(children(node))
        for child in graph[node] - seen:
            seen.add(child)
            queue.append(child)
    return graph


def to_goal(graph: dict[Any, frozenset[Any]], goal: Callable[[Any], bool]) -> dict[Any, int]:
    """The fewest pushes from each node of ``graph`` that can reach a goal node to one."""
    parents: dict[Any, list[Any]] = {node: [] for node in graph}
    for node, kids in graph.items():
        for kid in kids:
            parents[kid].append(node)
    dist = {node: 0 for node in graph if goal(node)}
    queue = deque(dist)
    while queue:
        node = queue.popleft()
        for parent in parents[node]:
            if parent not in dist:
                dist[parent] = dist[node] + 1
                queue.append(parent)
    return dist


def graph_differences(case: Case) -> list[str]:
    """What differs between the oracle's whole push graph from the start and the generator's:
    the positions and pushes with no pruning; with default pruning, the verdict (solvable or
    not) and the fewest pushes at every position it reaches, and a push towards the goal kept
    at every solvable position of the oracle's graph."""
    room = case.room
    oracle = explore(start_of(room), lambda p: oracle_children(room, p))
    bare = case.problem(NO_PRUNING)
    raw = explore(bare.initial_state(), lambda s: [c for _a, c, _k in bare.successors(s)])
    generated = {case.decode(s): frozenset(map(case.decode, kids)) for s, kids in raw.items()}
    out = []
    if generated != oracle:
        missing = sum(len(kids - generated.get(p, frozenset())) for p, kids in oracle.items())
        extra = sum(len(kids - oracle.get(p, frozenset())) for p, kids in generated.items())
        out.append(f"{len(generated)} positions, not {len(oracle)}: {missing} pushes missing, {extra} too many")
    dist = to_goal(oracle, lambda p: p[0] == room.goals)
    default = case.problem(DEFAULT)
    pruned = explore(default.initial_state(), lambda s: [c for _a, c, _k in default.successors(s)])
    pruned_dist = to_goal(pruned, lambda s: case.decode(s)[0] == room.goals)
    if start_of(room) not in oracle or case.decode(default.initial_state()) != start_of(room):
        out.append(f"the generator starts at {case.decode(default.initial_state())}, not {start_of(room)}")
    for state in pruned:
        verdict = dist.get(case.decode(state)), pruned_dist.get(state)
        if verdict[0] != verdict[1]:
            out.append(f"{case.decode(state)}: fewest pushes {verdict[0]} by the oracle, {verdict[1]} pruned")
    for position, d in dist.items():
        kids = [case.decode(c) for _a, c, _k in default.successors(case.encode(position))] if d else []
        if d and not any(dist.get(kid) == d - 1 for kid in kids):
            out.append(f"default pruning keeps no push towards the goal at {position} ({d} pushes away)")
    return out


# -- levels ------------------------------------------------------------------------------------------
def render(height: int, width: int, walls: set[Square], boxes: set[Square], goals: set[Square], player: Square) -> str:
    """Level text of a grid (rows ``0..height-1``, columns ``0..width-1``)."""
    chars = {(False, False): " ", (True, False): "$", (False, True): ".", (True, True): "*"}
    rows = []
    for r in range(height):
        row = ""
        for c in range(width):
            sq = (r, c)
            if sq in walls:
                row += "#"
            elif sq == player:
                row += "+" if sq in goals else "@"
            else:
                row += chars[sq in boxes, sq in goals]
        rows.append(row)
    return "\n".join(rows) + "\n"


@st.composite
def rooms(draw: st.DrawFn, sides: tuple[int, int], most_walls: int, most_boxes: int) -> str:
    """A random walled room, ``sides`` the least and most squares of its inside across and
    down, with up to ``most_walls`` walls inside and 1 to ``most_boxes`` boxes and as many
    goals where the player can come."""
    height, width = draw(st.integers(*sides)), draw(st.integers(*sides))
    inside = [(r, c) for r in range(1, height + 1) for c in range(1, width + 1)]
    walls = set(draw(st.lists(st.sampled_from(inside), max_size=most_walls, unique=True)))
    walls |= {(r, c) for r in range(height + 2) for c in range(width + 2)} - set(inside)
    player = draw(st.sampled_from([sq for sq in inside if sq not in walls]))
    reach = sorted(walks(player, frozenset(inside) - walls))
    assume(len(reach) >= 3)
    n = draw(st.sampled_from(range(min(most_boxes, len(reach) - 2), 0, -1)))  # the most boxes first
    boxes = draw(st.lists(st.sampled_from([sq for sq in reach if sq != player]), min_size=n, max_size=n, unique=True))
    goals = draw(st.lists(st.sampled_from(reach), min_size=n, max_size=n, unique=True))
    return render(height + 2, width + 2, walls, set(boxes), set(goals), player)


@st.composite
def fuzzed(draw: st.DrawFn, texts: Sequence[str], most_boxes: int) -> str:
    """A level of ``texts`` with a few changes: an inside wall taken away or put up, a box, a
    goal or the player moved, a box and a goal added; only what the parser takes and the
    player can solve in principle (every box and goal where he can come)."""
    rows = draw(st.sampled_from(texts)).splitlines()
    height, width = len(rows), max(map(len, rows))
    grid = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)}
    walls = {sq for sq, ch in grid.items() if ch == "#"}
    boxes = {sq for sq, ch in grid.items() if ch in "$*"}
    goals = {sq for sq, ch in grid.items() if ch in ".+*"}
    player = next(sq for sq, ch in grid.items() if ch in "@+")
    inside = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    for _ in range(draw(st.integers(1, 4))):
        change = draw(st.sampled_from(("wall", "box", "goal", "player", "pair")))
        sq = draw(st.sampled_from(inside))
        if change == "wall" and sq not in boxes | goals | {player}:
            walls ^= {sq}
        elif sq in walls:
            continue
        elif change == "box" and sq not in boxes and sq != player:
            boxes = boxes - {draw(st.sampled_from(sorted(boxes)))} | {sq}
        elif change == "goal" and sq not in goals:
            goals = goals - {draw(st.sampled_from(sorted(goals)))} | {sq}
        elif change == "player" and sq not in boxes:
            player = sq
        elif change == "pair" and sq not in boxes and sq != player and len(boxes) < most_boxes:
            free_goals = [g for g in inside if g not in walls | goals]
            boxes, goals = boxes | {sq}, goals | {draw(st.sampled_from(free_goals))}
    text = render(height, width, walls, boxes, goals, player)
    try:
        parse_level(text)
    except InputError:
        assume(False)
    assume(read_room(text.splitlines()) is not None)
    return text


def few_boxes(most: int) -> list[str]:
    return [lv.text() for lv in MICROBAN if sum(map("".join(lv.rows).count, "$*")) <= most]


def small_space(text: str, most: int) -> bool:
    """True when a level's positions (boxes on floor squares) number at most ``most``."""
    room = read_room(text.splitlines())
    return room is not None and comb(len(room.floor), len(room.boxes)) <= most


FEW_BOXES = few_boxes(4)
SMALL_MICROBAN = [t for t in few_boxes(3) if small_space(t, 1200)]


# -- the oracle itself, on levels worked out by hand ------------------------------------------------
HAND = "#######\n#. $  #\n#@$$ .#\n#   . #\n#######\n"
CORRIDOR = "######\n#@ $.#\n######\n"


def test_the_oracle_on_levels_worked_out_by_hand() -> None:
    room = read_room(HAND.splitlines())
    assert room is not None and room.player == (2, 1) and room.goals == {(1, 1), (2, 5), (3, 4)}
    # the box on (2, 3) is stuck between boxes and walls; the others go sideways or up and down
    assert legal_pushes(room, room.boxes, room.player) == {
        Push((1, 3), "l"): Child(frozenset({(1, 2), (2, 2), (2, 3)}), (1, 3), 6),  # round by the bottom row
        Push((1, 3), "r"): Child(frozenset({(1, 4), (2, 2), (2, 3)}), (1, 3), 2),
        Push((2, 2), "u"): Child(frozenset({(1, 3), (1, 2), (2, 3)}), (2, 2), 2),
        Push((2, 2), "d"): Child(frozenset({(1, 3), (3, 2), (2, 3)}), (2, 2), 2),
    }
    live = live_sides(room)
    dead = {sq for sq in room.floor - room.goals if not any((sq, side) in live for side in room.floor)}
    assert dead == {(3, 1), (1, 5), (3, 5)}  # the corners off goals
    corridor = read_room(CORRIDOR.splitlines())
    assert corridor is not None
    sides = live_sides(corridor)
    # a box in a corridor is alive with the player behind it, on the side away from the goal
    assert ((1, 3), (1, 1)) in sides and ((1, 3), (1, 4)) not in sides
    assert ((1, 2), (1, 1)) in sides and ((1, 2), (1, 3)) not in sides
    assert read_room("#####\n#@$.#\n#####\n#$. #\n#####".splitlines()) is None  # a box no one reaches
    assert read_room("#####\n#@$.#\n#####\n#*  #\n#####".splitlines()) is not None  # on its goal: a wall


# -- the generator against the oracle ---------------------------------------------------------------
SEEDS = st.integers(0, 2**32 - 1)


@pytest.mark.parametrize("profile", PROFILES)
def test_random_rooms_push_for_push(profile: Profile) -> None:
    sides, most_boxes = ((5, 10), 4) if profile.name == "heavy" else ((5, 8), 3)

    def check(drawn: tuple[str, int]) -> None:
        text, seed = drawn
        case = Case(text)
        push_for_push(case, random_positions(case.room, random.Random(seed), 12))

    profile.run(st.tuples(rooms(sides, 6, most_boxes), SEEDS), check, examples=40)


@pytest.mark.parametrize("profile", PROFILES)
def test_tiny_rooms_whole_push_graphs(profile: Profile) -> None:
    sides = (2, 5) if profile.name == "heavy" else (2, 4)

    def check(text: str) -> None:
        wrong = graph_differences(Case(text))
        assert not wrong, f"on\n{text}" + "\n".join(wrong[:10])

    profile.run(rooms(sides, 3, 3), check, examples=40)


@pytest.mark.parametrize("profile", PROFILES)
def test_fuzzed_microban_push_for_push(profile: Profile) -> None:
    def check(drawn: tuple[str, int]) -> None:
        text, seed = drawn
        case = Case(text)
        push_for_push(case, random_positions(case.room, random.Random(seed), 12))

    profile.run(st.tuples(fuzzed(FEW_BOXES, 5), SEEDS), check, examples=40)


@pytest.mark.parametrize("profile", PROFILES)
def test_fuzzed_microban_whole_push_graphs(profile: Profile) -> None:
    def check(text: str) -> None:
        assume(small_space(text, 1200))
        wrong = graph_differences(Case(text))
        assert not wrong, f"on\n{text}" + "\n".join(wrong[:10])

    profile.run(fuzzed(SMALL_MICROBAN, 3), check, examples=25)


@pytest.mark.parametrize("walk", [20, pytest.param(150, marks=pytest.mark.slow)])
def test_microban_starts_and_random_pushes_push_for_push(walk: int) -> None:
    for level in MICROBAN:
        case = Case(level.text())
        push_for_push(case, random_positions(case.room, random.Random(level.number), walk))


@pytest.mark.parametrize(
    "texts",
    [
        pytest.param(SMALL_MICROBAN, id="small"),
        pytest.param([t for t in few_boxes(4) if small_space(t, 12_000)], id="larger", marks=pytest.mark.slow),
    ],
)
def test_microban_whole_push_graphs(texts: list[str]) -> None:
    assert len(texts) > 40
    for text in texts:
        wrong = graph_differences(Case(text))
        assert not wrong, f"on\n{text}" + "\n".join(wrong[:10])


# -- the comparison catches a broken generator -------------------------------------------------------
Kids = list[tuple[Any, Any, Any]]


def drop_one(kids: Kids, state: tuple[int, int], rng: random.Random) -> Kids:
    if kids:
        del kids[rng.randrange(len(kids))]
    return kids


def add_illegal(kids: Kids, state: tuple[int, int], rng: random.Random) -> Kids:
    if kids:  # a push of the box said to stand where the player does
        action, child, cost = rng.choice(kids)
        kids.append((action._replace(square=state[1]), child, cost))
    return kids


def exact_player(kids: Kids, state: tuple[int, int], rng: random.Random) -> Kids:
    return [(action, (child[0], action.square), cost) for action, child, cost in kids]


@pytest.mark.parametrize(
    "breaking,said",
    [(drop_one, "dropped"), (add_illegal, "is illegal"), (exact_player, "leads to")],
    ids=["a push dropped", "an illegal push", "the player's square not normalised"],
)
def test_a_broken_generator_is_caught_push_for_push(
    breaking: Callable[[Kids, tuple[int, int], random.Random], Kids], said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(75)
    successors = SokobanProblem.successors
    monkeypatch.setattr(SokobanProblem, "successors", lambda self, s: breaking(successors(self, s), s, rng))
    caught = 0
    for level in MICROBAN[:10]:
        case = Case(level.text())
        with pytest.raises(AssertionError, match=said):
            push_for_push(case, random_positions(case.room, random.Random(level.number), 10))
        caught += 1
    assert caught == 10


def test_pruning_too_little_or_too_much_is_caught() -> None:
    """The dead-square demands against the generator with no pruning (dead pushes kept) and
    with every default detector (live pushes dropped by the others)."""
    kept = dropped = 0
    for level in MICROBAN[:20]:
        case = Case(level.text())
        for position in random_positions(case.room, random.Random(level.number), 30):
            kept += any("dead square" in d for d in differences(case, DEAD_SQUARES, position, case.problem(NO_PRUNING)))
            dropped += any("dropped" in d for d in differences(case, DEAD_SQUARES, position, case.problem(DEFAULT)))
    assert kept and dropped


def test_one_push_dropped_anywhere_in_a_level_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A push left out at one position of a whole push graph: the graphs differ."""
    rng = random.Random(20)
    successors = SokobanProblem.successors
    for text in SMALL_MICROBAN[:8]:
        case = Case(text)
        oracle = explore(start_of(case.room), lambda p, room=case.room: oracle_children(room, p))
        where = case.encode(rng.choice([p for p, kids in oracle.items() if kids]))

        def broken(self: SokobanProblem, state: tuple[int, int], where: tuple[int, int] = where) -> Kids:
            kids = successors(self, state)
            return kids[1:] if state == where else kids

        with monkeypatch.context() as patch:
            patch.setattr(SokobanProblem, "successors", broken)
            assert any("pushes missing" in d for d in graph_differences(case)), text
