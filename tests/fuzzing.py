"""Shared pieces of the fuzz tests (tests/test_fuzz_*.py): profiles, the CLI run in-process,
and the checks every parser of user input must pass.

The property (issue 16): bad input gives a clean result or one ``Error:`` line with exit 2,
never a traceback, a hang or a partial file.

Profiles: every fuzz test runs once under `CI` (a few hundred examples, derandomized) and
once under `HEAVY` (thousands, random seeds, ``-m slow``).  CI is derandomized so that a
red run is red again on a re-run and on a laptop, and the suite's time is the same every
run; a fixed seed would do the same, but derandomize also keeps Hypothesis from replaying
an example database that differs between machines.  The heavy run is where new inputs
are explored: it draws fresh seeds each time and prints the ``@reproduce_failure`` blob of
anything it finds, which then becomes an explicit example here.  Under ``CI=true`` (CI's
slow step) the heavy run is derandomized too: its thousands of examples are the same every
run, so CI's verdict on a commit does not change on a re-run.
"""

from __future__ import annotations

import io
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from searchkit.cli import main
from searchkit.errors import InputError


@dataclass(frozen=True)
class Profile:
    """How many examples a fuzz test draws, and within what time each must finish."""

    name: str
    examples: int
    derandomize: bool

    def configured(self, examples: int | None = None, deadline_s: float = 5.0) -> settings:
        count = examples if examples is not None else self.examples
        if self.name == "heavy":
            count *= 15
        return settings(
            max_examples=count,
            derandomize=self.derandomize,
            database=None,
            # "no hang": every example is bounded; parsers take milliseconds, and 5 s leaves room
            # for a loaded CI machine (a slow replay would make Hypothesis call the timing flaky)
            deadline=timedelta(seconds=deadline_s),
            # the generated texts and files are big on purpose (huge levels, long boards)
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
            phases=[Phase.explicit, Phase.generate, Phase.shrink],  # no example database: nothing to reuse
            print_blob=True,
        )

    def run(
        self,
        strategy: st.SearchStrategy[Any],
        check: Callable[[Any], None],
        examples: int | None = None,
        deadline_s: float = 5.0,
    ) -> None:
        """Draw examples of ``strategy`` and run ``check`` on each."""

        @self.configured(examples, deadline_s)
        @given(strategy)
        def fuzz(value: Any) -> None:
            check(value)

        fuzz()


CI = Profile("ci", 200, True)
HEAVY = Profile("heavy", 200, os.environ.get("CI", "").lower() == "true")
# parametrize a test over both; the heavy one only runs with -m slow
PROFILES = [pytest.param(CI, id="ci"), pytest.param(HEAVY, id="heavy", marks=pytest.mark.slow)]


def parses_or_refuses(parse: Callable[[], Any]) -> Any:
    """``parse()``'s value, or None when it raised InputError; any other exception fails the test."""
    try:
        return parse()
    except InputError as e:
        message = str(e)
        # splitlines: "\r", "\v", "\x1c".. "\x1e" and "\u2028" break lines too
        assert len(message.splitlines()) == 1, f"an Error: line must be one line, got {message!r}"
        assert "Traceback" not in message
        return None


# -- the CLI, in-process, through the real entry point ---------------------------------------
@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str
    warnings: tuple[str, ...] = ()  # Python warnings: the installed program prints them on stderr


def run_cli(*args: str) -> Outcome:
    """``searchkit ARGS`` through `searchkit.cli.main` (its one-line error handling included)."""
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    debug = os.environ.pop("SEARCHKIT_DEBUG", None)
    sys.argv = ["searchkit", *args]
    try:
        with redirect_stdout(out), redirect_stderr(err), warnings.catch_warnings(record=True) as caught:
            # what python shows a user by default (pytest would otherwise swallow them)
            warnings.resetwarnings()
            warnings.simplefilter("default")
            for quiet in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", quiet)
            try:
                main()
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = argv
        if debug is not None:
            os.environ["SEARCHKIT_DEBUG"] = debug
    shown = tuple(f"{w.category.__name__}: {w.message}" for w in caught)
    return Outcome(code, out.getvalue(), err.getvalue(), shown)


def assert_clean(outcome: Outcome, allowed: tuple[int, ...] = (0, 2)) -> None:
    """Exit ``allowed`` (never 1, an internal failure), no traceback, and exit 2 with
    exactly one line on stderr, an ``Error:`` one."""
    assert "Traceback" not in outcome.err and "Traceback" not in outcome.out, outcome
    assert not outcome.warnings, f"python warnings reach the user's terminal: {outcome}"
    assert outcome.code in allowed, outcome
    if outcome.code == 2:
        lines = outcome.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), outcome
        assert "internal failure" not in lines[0], outcome


# -- files -------------------------------------------------------------------------------------
def snapshot(directory: Path) -> dict[str, bytes | None]:
    """Every entry of ``directory`` (files with their bytes; directories as None)."""
    return {p.name: (p.read_bytes() if p.is_file() else None) for p in directory.iterdir()}


def assert_no_partial_files(directory: Path, before: dict[str, bytes | None], written: set[str]) -> None:
    """After a refused command: every file is as it was, nothing new (no temp files either),
    except the names in ``written`` a successful command may have made."""
    after = snapshot(directory)
    new = set(after) - set(before) - written
    assert not new, f"left behind: {sorted(new)}"
    for name, data in before.items():
        if name not in written:
            assert after.get(name) == data, f"{name} changed"


def no_temp_files(directory: Path) -> Iterator[str]:
    """Names that look like `searchkit.atomic` temporary files (``.stem.XXXX.suffix``)."""
    return (p.name for p in directory.rglob(".*") if p.is_file())


# -- strategies ----------------------------------------------------------------------------------
# how deep to nest brackets: Hypothesis prefers small integers, and the parsers' recursion
# limits (about 1000) are what is being probed
NESTING = st.sampled_from([1, 10, 500, 999, 1000, 1001, 2000, 5000, 100_000])


def mutated(text: str, alphabet: str) -> st.SearchStrategy[str]:
    """``text`` with a few characters deleted, duplicated, replaced or inserted."""

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        chars = list(text)
        for _ in range(draw(st.integers(1, 6))):
            if not chars:
                chars.append(draw(st.sampled_from(alphabet)))
                continue
            i = draw(st.integers(0, len(chars) - 1))
            op = draw(st.sampled_from(("delete", "duplicate", "replace", "insert", "cut")))
            if op == "delete":
                del chars[i]
            elif op == "duplicate":
                j = draw(st.integers(i, min(len(chars), i + 40)))
                chars[i:i] = chars[i:j]
            elif op == "replace":
                chars[i] = draw(st.sampled_from(alphabet))
            elif op == "insert":
                chars.insert(i, draw(st.sampled_from(alphabet)))
            else:
                del chars[i:]
        return "".join(chars)

    return mutate()


def mutated_bytes(data: bytes) -> st.SearchStrategy[bytes]:
    """``data`` truncated, with bytes flipped, inserted or deleted."""

    @st.composite
    def mutate(draw: st.DrawFn) -> bytes:
        b = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            if not b:
                b.extend(draw(st.binary(min_size=1, max_size=8)))
                continue
            i = draw(st.integers(0, len(b) - 1))
            op = draw(st.sampled_from(("truncate", "flip", "insert", "delete", "zero")))
            if op == "truncate":
                del b[i:]
            elif op == "flip":
                b[i] ^= 1 << draw(st.integers(0, 7))
            elif op == "insert":
                b[i:i] = draw(st.binary(min_size=1, max_size=16))
            elif op == "delete":
                del b[i : i + draw(st.integers(1, 16))]
            else:
                b[i : i + 8] = bytes(min(8, len(b) - i))
        return bytes(b)

    return mutate()
