"""The Sokoban engines: the core's portfolio (the default) and alternation, configured."""

from __future__ import annotations

import math
import sys

import pytest
from project import ROOT
from searchkit_sokoban import engines
from searchkit_sokoban.engines import sokoban_alternation, sokoban_portfolio
from searchkit_sokoban.levels import parse_level

from searchkit import InputError, Limits, greedy, make_problem, portfolio
from searchkit.solving import execute, prepare


def problem(level: str, heuristic: str = "nearest-goal", **options):
    return make_problem("sokoban", heuristic, level_file=level, **options)


@pytest.mark.parametrize("member", ["nearest-goal", "matching", "greedy:matching"])
def test_one_member_is_plain_greedy(member):
    """Alone, a member's search expands what the core greedy engine expands."""
    mine = portfolio(problem("microban:36"), members=member)
    core = greedy(problem("microban:36", member.rpartition(":")[2]))
    assert mine.solved and core.solved
    assert (mine.stats.expanded, mine.cost) == (core.stats.expanded, core.cost)


def test_an_astar_member_finds_the_short_solution_greedy_misses():
    """Level 146 has a 14-push solution that greedy search loses among misleading deep states."""
    result = portfolio(problem("microban:146"), members="astar:matching", limits=Limits(timeout_s=20))
    assert result.solved and result.cost == 14


@pytest.mark.parametrize("n", [1, 5, 36, 77, 146])
def test_the_default_solves_and_execute_replays(n):
    job = prepare("sokoban", {"level_file": f"microban:{n}"})
    assert job.engine.name == "sokoban-portfolio" and job.heuristic.name == "nearest-goal"
    result = execute(job, Limits(timeout_s=20))  # execute replays the LURD on the level text
    assert result.solved and result.engine == "sokoban-portfolio"


def test_a_member_carries_its_share_and_shares_override_them_all():
    from searchkit.engines.portfolio import parse_members, parse_shares

    default = parse_members(engines.PORTFOLIO_MEMBERS)
    assert parse_shares("", default) == [1, 3, 1, 1, 2, 5]  # the first pull search thrice, fess-aim five times
    assert parse_shares("3,1,1,1,1,1", default) == [3, 1, 1, 1, 1, 1]
    assert default[2] == ("search", "", "fess-own", 3.0, math.inf, 1)  # joins at 3 s
    # the second pull search (compiled), one share
    assert default[3] == ("search", "", "pull-compiled", 3.0, math.inf, 1)
    assert default[4] == ("search", "", "fess-stranded", 3.0, math.inf, 2)  # FESS counting stranded goals, twice
    assert default[5] == ("search", "", "fess-aim", 3.0, math.inf, 5)  # FESS aimed at open positions (three lanes)
    # each default member has its words in the engine's description (`searchkit engines`), and
    # README's paragraph on the default quotes the string it describes
    assert {name for _d, _o, name, *_ in default} <= set(engines.MEMBER_WORDS)
    readme = (ROOT / "README.md").read_text()
    assert f"members={engines.PORTFOLIO_MEMBERS}`" in readme
    (spec,) = parse_members("search:fess@3<20*0.5")
    assert spec == ("search", "", "fess", 3.0, 20.0, 0.5)
    assert parse_shares("", parse_members("nearest-goal,backward:pull")) == [1, 1]
    # end to end: members of one's own, shares given inline
    params = {"members": "nearest-goal,backward:pull*2"}
    job = prepare("sokoban", {"level_file": "microban:1"}, params=params)
    assert execute(job, Limits(timeout_s=20)).solved


def test_the_others_join_after_the_solo_start():
    alone = greedy(problem("microban:36"))
    assert sokoban_portfolio(problem("microban:36")).stats.expanded == alone.stats.expanded  # solved alone
    both = portfolio(problem("microban:36"), members="nearest-goal,matching", shares="1,1", solo=0)
    assert both.solved and both.stats.stored > alone.stats.stored  # the other stored states too


def test_a_member_written_with_a_time_joins_only_then():
    alone = greedy(problem("microban:36"))
    late = portfolio(problem("microban:36"), members="nearest-goal,matching@100", shares="1,1", solo=0)
    assert late.stats.expanded == alone.stats.expanded and late.stats.answered_by == "greedy:nearest-goal"
    now = portfolio(problem("microban:36"), members="nearest-goal,matching@0", shares="1,1", solo=0)
    assert now.solved and now.stats.stored > alone.stats.stored


def test_a_member_written_with_an_end_stops_then_and_the_others_go_on():
    """``<U``: greedy nearest-goal stops after its first turn; matching answers."""
    assert greedy(problem("microban:144")).stats.expanded > 2000  # far more than a turn
    result = portfolio(problem("microban:144"), members="nearest-goal<0.001,matching", shares="1,1", solo=0)
    assert result.solved and result.stats.answered_by == "greedy:matching"
    alone = greedy(problem("microban:144", "matching"))
    assert result.stats.expanded - alone.stats.expanded <= 64  # a turn or two of the first
    # never the last search: alone, it goes on until a later one joins
    assert portfolio(problem("microban:36"), members="nearest-goal<0.001").solved


@pytest.mark.parametrize("text", ["#####\n#$ .#\n#@  #\n#####", "#######\n#. $ @#\n# $   #\n#  #. #\n#######"])
def test_unsolvable_levels_end_without_a_solution(text, tmp_path):
    (tmp_path / "x.txt").write_text(text + "\n")
    parse_level(text)
    assert sokoban_portfolio(problem(str(tmp_path / "x.txt")), limits=Limits(timeout_s=10)).status == "no-solution"


def test_limits_and_bad_parameters():
    result = sokoban_portfolio(problem("microban:144"), limits=Limits(max_expanded=3000))
    assert result.status == "limit" and result.stats.expanded <= 3000 + 64
    p = problem("microban:1")
    for bad in (
        {"shares": "2"},
        {"members": "dfs:matching"},
        {"members": "nearest-goal", "shares": "0"},
        {"solo": -1},
        {"members": "bogus"},
        {"members": "nearest-goal,matching@-1", "shares": "1,1"},
        {"members": "nearest-goal,matching@soon", "shares": "1,1"},
        {"members": "nearest-goal<never,matching", "shares": "1,1"},
        {"members": "nearest-goal,matching@5<3", "shares": "1,1"},
        {"members": "nearest-goal,matching*0"},
        {"members": "nearest-goal*lots,matching"},
        {"members": "nearest-goal*2,matching", "shares": "1"},
    ):
        with pytest.raises(InputError):
            sokoban_portfolio(p, **bad)
    with pytest.raises(InputError, match="unknown heuristic 'bogus'"):
        sokoban_alternation(p, guides="nearest-goal,bogus")


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ("nearest-goal,backward:pul@100", "unknown heuristic or variant 'pul'"),
        ("nearest-goal,search:fes@100", "unknown search 'fes'"),
        ("nearest-goal,greedy:matchin@100", "unknown heuristic or variant 'matchin'"),
    ],
)
def test_a_misspelt_member_fails_before_any_search_starts(members, message):
    # the member would join only after 100 CPU seconds: the name is refused at once
    with pytest.raises(InputError, match=message):
        sokoban_portfolio(problem("sasquatch:4"), members=members, shares="1,1", limits=Limits(timeout_s=60))


def test_moves_mode_leaves_the_pull_search_out():
    p = problem("microban:3", optimize="moves")
    assert portfolio(p, members="nearest-goal,backward:pull", solo=0).solved
    with pytest.raises(InputError):
        portfolio(p, members="backward:pull")
    job = prepare("sokoban", {"level_file": "microban:3", "optimize": "moves"})
    assert execute(job, Limits(timeout_s=20)).solved


def test_alternation_solves_honours_limits_and_replays():
    job = prepare("sokoban", {"level_file": "microban:6"}, "sokoban-alternation")
    result = execute(job, Limits(timeout_s=20))
    assert result.solved and result.engine == "sokoban-alternation"
    job = prepare(
        "sokoban", {"level_file": "microban:93"}, "sokoban-alternation", params={"guides": "nearest-goal,packing"}
    )
    stopped = execute(job, Limits(max_expanded=300))
    assert stopped.status == "limit" and stopped.stats.expanded <= 300 and stopped.stats.limit_reason == "nodes"


def test_fess_is_a_portfolio_member_and_the_answer_names_it():
    """``search:fess`` asks the problem for its own search; the stats say who answered."""
    alone = portfolio(problem("xsokoban:9"), members="search:fess", limits=Limits(timeout_s=60))
    assert alone.solved and alone.stats.answered_by == "search:fess"
    job = prepare(
        "sokoban",
        {"level_file": "xsokoban:1"},
        params={"members": "nearest-goal,search:fess", "shares": "1,1", "solo": 0},
    )
    mixed = execute(job, Limits(timeout_s=60))
    assert mixed.solved and mixed.stats.answered_by in ("greedy:nearest-goal", "search:fess")
    with pytest.raises(InputError, match="unknown search 'bogus'"):
        portfolio(problem("microban:1"), members="search:bogus")


def test_fess_is_left_out_where_it_cannot_run():
    """Counting moves, FESS (pushes only) is no member: the others answer alone."""
    p = problem("microban:3", optimize="moves")
    result = portfolio(p, members="nearest-goal,search:fess", solo=0)
    assert result.solved and result.stats.answered_by == "greedy:nearest-goal"
    with pytest.raises(InputError, match="first search"):
        portfolio(p, members="search:fess")


class _Clock:
    """The portfolio's clock in these tests: it moves only when a stub expands, so the
    shares are the arithmetic under test, not the machine's scheduling."""

    now = 0.0

    def __call__(self):
        return self.now


class _Stub:
    """A member search that never ends: each step is one expansion of a fixed cost on the
    ``clock``, and it reports a fixed progress."""

    problem = None
    status = None
    generated = duplicates = reopened = stored = frontier = 0
    done = False

    def __init__(self, progress, clock):
        self.expanded, self._progress, self.clock = 0, progress, clock

    def step(self, budget=None):
        self.clock.now += 0.0005
        self.expanded += 1
        return False

    def progress_fraction(self):
        return self._progress


class _StubProblem:
    search_names = ("ahead", "behind", "silent")

    def __init__(self, clock):
        self.made, self.clock = {}, clock

    def member_search(self, name, observer):
        self.made[name] = _Stub({"ahead": 0.9, "behind": 0.5, "silent": None}[name], self.clock)
        return self.made[name]


@pytest.mark.parametrize("lead", [1.0, 3.0])
def test_lead_gives_the_member_well_ahead_that_many_times_its_share(lead, monkeypatch):
    from searchkit.engines.portfolio import LEAD_MARGIN

    clock = _Clock()
    monkeypatch.setattr(sys.modules["searchkit.engines.portfolio"], "perf_counter", clock)
    stubs = _StubProblem(clock)
    result = portfolio(
        stubs, members="search:ahead,search:behind,search:silent", lead=lead, limits=Limits(max_expanded=600)
    )
    assert result.status == "limit"
    ahead, behind, silent = (stubs.made[n].expanded for n in ("ahead", "behind", "silent"))
    assert 0.9 - 0.5 >= LEAD_MARGIN
    assert ahead / behind == pytest.approx(lead, rel=0.25) and behind / silent == pytest.approx(1.0, rel=0.25)


def test_lead_is_a_number_of_at_least_one():
    with pytest.raises(InputError, match="lead"):
        portfolio(problem("microban:1"), members="nearest-goal", lead=0.5)


def test_fess_forwards_reports_its_packed_share_and_fess_backwards_none():
    from searchkit_sokoban.fess import FessSearch
    from searchkit_sokoban.fess_pull import PullFessSearch

    fess = FessSearch(problem("microban:93"))
    fess.step(20)
    assert fess.progress_fraction() == fess.best_done / fess.total
    assert PullFessSearch(problem("microban:93")).progress_fraction() is None
