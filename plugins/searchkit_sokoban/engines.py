"""The Sokoban engines: configurations of the core's portfolio and alternation.

``sokoban-portfolio`` (the default) runs greedy nearest-goal forwards alone for 0.5 CPU
seconds, then with a greedy pull search backwards on nearest-goal (`pull.py`, aimed at the
gateway past a cramped start), which has three times its share: forwards alone misses
Microban 146 and 153, backwards 93; together they miss none.  (The pull search alone answers
153 in 2.7 s of a slow hour; with equal shares its part ran past the third second, when four
more join, and 153 missed 10 s: 154/155; with three times the share 155/155, 153 in 5.1 s.)
After 3 CPU seconds four more join them: FESS (`fess`) counting stranded goals
(``fess-stranded``, with the FESS endgame at a twentieth of its time: Sasquatch III 16, and
packing by a parking plan where a goal area needs one: Sasquatch II 6) with
two thirteenths of the time, FESS filing positions in their own cells
(``fess-own``; XSokoban 23 falls to it in 2 s of its own) with one, FESS aimed at open
positions that FESS backwards found (``fess-aim``, `aim`: four lanes, one aiming nearest the
start, two farthest from the goals after a short look and a long one, and one aiming again
where those two did, filling each aim in its packing order) with five, and a second
pull search whose nearest-goal and matching estimates take turns with one (large levels are
their ground: XSokoban for FESS, Sasquatch II for the pulls, both for ``fess-aim``; small ones
are solved before they start, as fast as without them).  After 10 CPU seconds the greedy
search and the first pull search stop (on XSokoban and Sasquatch II they answer within 3 s or
not at all; the positions they stored still meet the others') and ``fess-aim`` has five ninths
of the time, ``fess-stranded`` two ninths, the second pull search and ``fess-own`` a ninth each.
Against two shares for the second pull search (the default before), side by side at 60 s per
level: XSokoban 81 of 90 against 81 (the same levels, 586.0 s against 618.3 s on them: ``fess-aim``'s and
``fess-stranded``'s answers 5-10 % sooner), Sasquatch II 33 of 50 against 32 (42 new at 59.8 s;
10, 24 and 38 2-2.6 s sooner), Microban 155 against 155 (125.3 s both).
Before, plain FESS had a ninth and ``fess-stranded`` took ``fess-own``'s ninth only from the
20th CPU second: side by side at 60 s per level, XSokoban 77 of 90 against 74 (23, 40 and 42
new, none lost, 735.8 s against 749.6 s on the 74 both solve; plain FESS's answers, 36, 45, 47
and 62, came from ``fess-stranded`` or ``fess-aim`` instead), Sasquatch II 30 against 30 (the
same levels; 343.6 s against 301.5 s on them, ``fess-aim`` having a tenth less time: 24 at
53.7 s against 32.9), Microban 155 against 155 at 10 s.  ``fess-aim``'s five
shares against three, side by side in one run at 60 s per level: Sasquatch II 30 of 50
against 28 (7 and 24 new, 15 % less time on the 28), XSokoban's 30 late levels 29 against 28
(11 new, 14 % less time on the 28); at four shares, an earlier run, no level changed.  At
60 s per level with two lanes: XSokoban 79 of 90 (``fess-aim`` answers 19; aiming nearest the start only,
with twice the others' share, 74), Sasquatch II 27 of 50 (it answers 11; nearest only, 30:
13, 24 and 44 came at 55-58 s, by other members too, whose share is smaller now).  The third
lane, side by side with two in one run (a slower hour: two lanes 71 and 25): XSokoban 74,
Sasquatch II 28 (13, 19 and 20 new, none lost).
Both pull searches are the compiled copies of the Python ones (`compiled_pull`: the same
positions in the same order, six to seven times as fast; where numba is missing the Python
ones run in their place, `without_numba`): side by side at 60 s per level, Sasquatch II 34
of 50 against 33 (44 new, answered at 19.1 s by ``fess-own`` meeting the pull search, which
alone takes 1.7 s for what the Python one takes 11.7; 42 at the edge in both), XSokoban 81
of 90 against 81 (the same levels, 8 % sooner on them), Microban at 10 s 155 against 155.
``sokoban-alternation`` is one greedy search whose open lists, one per guide (matching,
nearest-goal, packing), take turns.
"""

from __future__ import annotations

from typing import Any

from searchkit import Limits, Observer, Result, alternation, portfolio

from .aim import FESS_AIM
from .compiled_pull import PULL_COMPILED, PULL_NEAREST_COMPILED, without_numba
from .compiled_pull import warm_up as warm_up_pull
from .compiled_search import WARM_UP_LEVEL
from .compiled_search import warm_up as warm_up_compiled
from .fess import FESS_OWN, FESS_STRANDED
from .fess import warm_up as warm_up_walk
from .heuristics import MATCHING, NEAREST, PACKING
from .pull import PULL, PULL_NEAREST

FESS_JOINS = 3.0  # CPU seconds before FESS joins the default portfolio
GREEDY_STOPS = 10.0  # CPU seconds after which the greedy search leaves its time to the others
PORTFOLIO_MEMBERS = (  # the first pull search with three times the others' share, fess-stranded two, fess-aim five
    f"{NEAREST}<{GREEDY_STOPS:g},search:{PULL_NEAREST_COMPILED}<{GREEDY_STOPS:g}*3,"
    f"search:{FESS_OWN}@{FESS_JOINS:g},search:{PULL_COMPILED}@{FESS_JOINS:g},"
    f"search:{FESS_STRANDED}@{FESS_JOINS:g}*2,search:{FESS_AIM}@{FESS_JOINS:g}*5"
)
MEMBER_WORDS = {  # the members' names in the words `searchkit engines` describes the default with
    NEAREST: "nearest-goal forwards",  # after the order: greedy nearest-goal forwards
    PULL_NEAREST: "a greedy pull search backwards on nearest-goal",
    PULL: "a greedy pull search on nearest-goal and matching in turns",
    PULL_NEAREST_COMPILED: "a greedy pull search backwards on nearest-goal (compiled)",
    PULL_COMPILED: "a greedy pull search on nearest-goal and matching in turns (compiled)",
    FESS_OWN: "FESS on its own cells",
    FESS_STRANDED: "FESS counting stranded goals, with an endgame and a parking plan",
    FESS_AIM: "FESS aimed at open positions found backwards",
}
PORTFOLIO_SHARES = ""  # the members' own (*W, else 1)
PORTFOLIO_SOLO = 0.5  # CPU seconds of the first member alone
PORTFOLIO_MEET = True  # a position reached both forwards and by the pulls joins their paths
PORTFOLIO_LEAD = 1.0  # -P lead=3: the FESS search packing well more goals has three times its share (measured, off)
ALTERNATION_GUIDES = ",".join((MATCHING, NEAREST, PACKING))  # matching's infinity is a deadlock: it prunes


def sokoban_portfolio(
    problem: Any,
    *,
    members: str = PORTFOLIO_MEMBERS,
    shares: str = PORTFOLIO_SHARES,
    solo: float = PORTFOLIO_SOLO,
    meet: bool = PORTFOLIO_MEET,
    lead: float = PORTFOLIO_LEAD,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """The core portfolio with the Sokoban default members (the compiled pull searches as
    their Python originals where numba is missing: `without_numba`)."""
    return portfolio(
        problem,
        members=without_numba(members),
        shares=shares,
        solo=solo,
        meet=meet,
        lead=lead,
        limits=limits,
        observer=observer,
    )


def sokoban_alternation(
    problem: Any, *, guides: str = ALTERNATION_GUIDES, limits: Limits | None = None, observer: Observer | None = None
) -> Result:
    """The core alternation over Sokoban guides."""
    return alternation(problem, heuristics=guides, limits=limits, observer=observer)


def warm_up() -> None:
    """Before timing (a benchmark's parent process, whose forked workers inherit what it
    loads): `warm_up_matching`, and with numba load the compiled push search (FESS's endgame),
    the compiled pull search and the compiled macro walk (numba's import 0.7 s, the walk's
    load 0.6 s)."""
    warm_up_matching()
    warm_up_compiled()
    warm_up_pull()
    warm_up_walk(WARM_UP_LEVEL)


def warm_up_matching() -> None:
    """Import SciPy's assignment solver (~0.8 s), for searches on matching, and load the
    shared rules the Python searches call (`warm_up_rules`): all the greedy alternation
    needs (it walks no macros and runs no compiled search)."""
    import importlib

    importlib.import_module("scipy.optimize")
    warm_up_rules()


def warm_up_rules() -> None:
    """Load the shared rules the Python searches call (the freeze and PI-corral tests,
    `freeze_rule` and `corral_rule`, compiled where numba runs; numba loads a compiled
    function's code for Python's calls apart from a kernel's) by asking each once on a
    one-box level: a benchmark's forked workers then call them at once."""
    from .board import Board
    from .corral import pi_corral_boxes
    from .deadlocks import frozen_off_goals
    from .levels import parse_levels

    board = Board(parse_levels(WARM_UP_LEVEL)[0])
    box = board.start_boxes
    for sealed in (True, False):  # the freeze rule's two entries
        frozen_off_goals(box.bit_length() - 1, box, board, sealed)
    pi_corral_boxes(board, box, 1 << board.player_start, True)  # the squares past the box unreached
