"""`searchkit check` failing: a small pancake domain with one broken promise at a time,
installed as a plugin, makes the command exit 1 with the failing check named; and a
bad-value probe runs under a time and memory budget.

This module is also the plugin: its ``register_domains`` registers one domain per fault,
reached through an entry point the tests write (`plugin_env`)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from searchkit import Domain, Heuristic, InputError, Param, hookimpl
from searchkit import testing as contract

# the command, its address space capped first, so that a missing budget costs seconds, not gigabytes
GUARD_GB = 2
CLI = [
    sys.executable,
    "-c",
    f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({GUARD_GB} << 30, {GUARD_GB} << 30)); "
    "from searchkit.cli import main; main()",
]
FAULTS = ("overestimates", "predecessors", "backward", "backward-disagrees", "unbounded")


# -- the plugin ----------------------------------------------------------------------------------
def flip(stack: tuple[int, ...], k: int) -> tuple[int, ...]:
    return stack[:k][::-1] + stack[k:]


def gaps(stack: tuple[int, ...]) -> int:
    """Neighbours that are not consecutive, the plate counting as pancake n: no flip mends
    two, so it never overestimates the flips left."""
    return sum(abs(a - b) != 1 for a, b in zip(stack, stack[1:] + (len(stack),)))


class Pancakes:
    """Sort a stack of pancakes ``0..n-1`` (top first) by flipping the top ``k``, each flip
    costing 1.  ``fault`` breaks one promise; ``use_heuristic`` attaches the gap heuristic
    times ``weight`` and, with it, the backward one (as gridpath does)."""

    def __init__(self, stack: tuple[int, ...], fault: str):
        self.start, self.fault, self.n = stack, fault, len(stack)
        self.goal = tuple(range(self.n))
        self.position = {p: i for i, p in enumerate(stack)}  # where each pancake starts
        self.heuristic = self.backward_heuristic = self.predecessors_with_h = None

    def initial_state(self):
        return self.start

    def is_goal(self, s):
        return s == self.goal

    def successors(self, s):
        return [(k, flip(s, k), 1) for k in range(2, self.n + 1)]

    def goal_states(self):
        return [self.goal]

    def predecessors(self, s):
        last = self.n if self.fault == "predecessors" else self.n + 1  # the fault leaves the whole-stack flip out
        return [(k, flip(s, k), 1) for k in range(2, last)]

    def describe(self, s):
        return " ".join(map(str, s))

    def use_heuristic(self, weight: int):
        def to_goal(s):
            return gaps(s) * weight * (2 if self.fault == "overestimates" else 1)

        def from_start(s):  # the gaps of s with each pancake named by where it starts
            return gaps(tuple(self.position[p] for p in s)) * weight * (2 if self.fault == "backward" else 1)

        def predecessors_with_h(s, _h):
            wrong = 1 if self.fault == "backward-disagrees" else 0
            return [(k, p, c, from_start(p) + wrong) for k, p, c in self.predecessors(s)]

        self.heuristic, self.backward_heuristic, self.predecessors_with_h = to_goal, from_start, predecessors_with_h


class PancakeDomain(Domain):
    params = [Param("size", int, 5, "pancakes in the stack"), Param("seed", int, 1, "how they are stacked")]

    def __init__(self, fault: str):
        super().__init__()
        self.fault, self.name, self.summary = fault, f"pancake-{fault}", f"pancakes, broken: {fault}"

    def builtin_heuristics(self):
        return {
            "gaps": Heuristic("gaps", summary="gap heuristic", consistent=True),
            # its backward heuristic overestimates too, as it may: answers guided by it promise nothing
            "double-gaps": Heuristic("double-gaps", summary="twice the gaps", admissible=False),
        }

    def check_instances(self):
        return [{"size": 5, "seed": 1}, {"size": 5, "seed": 2}]

    def make_problem(self, options, heuristic):
        size = options["size"]
        if size < 2 or (size > 8 and self.fault != "unbounded"):
            raise InputError(f"--size must be 2 to 8 (got {size})")
        stack = list(range(size))  # unbounded: 99999999 pancakes are gigabytes
        random.Random(options["seed"]).shuffle(stack)
        problem = Pancakes(tuple(stack), self.fault)
        if heuristic is not None:
            problem.use_heuristic(2 if heuristic.name == "double-gaps" else 1)
        return problem


@hookimpl
def register_domains(register):
    for fault in ("sound", *FAULTS):
        register(PancakeDomain(fault))


# -- the command on each fault -------------------------------------------------------------------
@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory) -> dict[str, str]:
    """The environment of a searchkit that finds this module as an installed plugin."""
    where = tmp_path_factory.mktemp("pancake-plugin")
    info = where / "sk_pancakes-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sk-pancakes\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[searchkit]\npancakes = {Path(__file__).stem}\n")
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(where), str(Path(__file__).parent)]))


def check(env: dict[str, str], domain: str) -> tuple[int, list[str]]:
    done = subprocess.run(
        CLI + ["check", domain],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert not done.stderr, done.stderr
    return done.returncode, done.stdout.splitlines()


EXPECTED = {
    "overestimates": ("heuristic gaps: admissible", r"h = \d+ but the exact cost to go is \d+ at [\d ]+$"),
    "predecessors": ("predecessors invert successors", r"but predecessors of the latter do not give it back$"),
    "backward": (
        "backward heuristic: admissible",
        r"with heuristic gaps: backward_heuristic = \d+ but the exact cost from the start is \d+ at [\d ]+$",
    ),
    "backward-disagrees": (
        "backward heuristic: predecessors_with_h agrees",
        r"with heuristic gaps: after \d+ from [\d ]+ predecessors_with_h says h = \d+, the heuristic says \d+$",
    ),
    "unbounded": (
        "bad options are refused cleanly",
        r"^accepted --size 99999999 and took more than [\d.]+ (MB|s): state a limit",
    ),
}


def test_the_sound_pancakes_pass(plugin_env):
    code, lines = check(plugin_env, "pancake-sound")
    assert code == 0 and not [line for line in lines if line.startswith("FAIL")], lines
    assert lines[:2] == ["instance 1: size=5 seed=1", "instance 2: size=5 seed=2"]
    assert (
        "PASS  backward heuristic: admissible: 240 states with exact costs from the start (with heuristic gaps)"
        in lines
    )
    agrees = "PASS  backward heuristic: predecessors_with_h agrees: "
    assert any(
        line.startswith(agrees) and line.endswith("(with heuristic gaps, with heuristic double-gaps)") for line in lines
    )


@pytest.mark.parametrize("fault", FAULTS)
def test_each_fault_exits_1_naming_it(plugin_env, fault):
    code, lines = check(plugin_env, f"pancake-{fault}")
    name, detail = EXPECTED[fault]
    named = [line.removeprefix(f"FAIL  {name}: ") for line in lines if line.startswith(f"FAIL  {name}: ")]
    assert code == 1 and len(named) == 1, lines
    assert re.search(detail, named[0]), named[0]
    failed = sum(line.startswith("FAIL") for line in lines)
    assert lines[-1].startswith(f"pancake-{fault}: ") and f" {failed} failed" in lines[-1]


# -- the probe's budget ----------------------------------------------------------------------------
class Slow(PancakeDomain):
    """Builds ``size`` bytes, or with ``seed`` 99999999 waits for `release` (at most 60 s)."""

    release = threading.Event()

    def __init__(self):
        super().__init__("unbounded")

    def make_problem(self, options, heuristic):
        if options["seed"] == 99999999:
            self.release.wait(60)
        return bytearray(options["size"])


def test_a_probe_over_the_memory_budget_is_stopped(monkeypatch):
    monkeypatch.setattr(contract, "PROBE_MEMORY_MB", 128)
    assert contract.probe(Slow(), {"size": 16 << 20, "seed": 1}) == (contract.BUILT, "")
    assert contract.probe(Slow(), {"size": 400 << 20, "seed": 1}) == (contract.OVER_MEMORY, "")
    assert contract.probe(Slow(), {"size": -1, "seed": 1})[0] == contract.CRASHED  # ValueError, not InputError


@pytest.mark.parametrize("fork", [True, False])
def test_a_probe_over_the_time_budget_is_stopped(monkeypatch, fork):
    """In a child process, or in a thread where processes cannot be forked."""
    import multiprocessing

    monkeypatch.setattr(contract, "PROBE_TIMEOUT_S", 0.5)
    if not fork:
        monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    Slow.release.clear()
    try:
        assert contract.probe(Slow(), {"size": 5, "seed": 99999999}) == (contract.OVER_TIME, "")
    finally:
        Slow.release.set()
    assert contract.probe(Slow(), {"size": 5, "seed": 1}) == (contract.BUILT, "")
