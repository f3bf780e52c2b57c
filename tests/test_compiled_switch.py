"""The core's shared switch for compiled kernels and its integer weights (`searchkit.compiled`)."""

import math

import pytest

from searchkit import NO_NUMBA_ENV, InputError, integer_weights, numba_available


def test_the_switch_turns_compiled_kernels_off(monkeypatch):
    monkeypatch.setenv(NO_NUMBA_ENV, "1")
    assert numba_available() is False


@pytest.mark.parametrize("weight", [1, 1.5, 2, 3, 2**0.5, math.pi, 7.25])
@pytest.mark.parametrize("denominator", [100, 1000])
def test_integer_weights_are_close_and_never_above_the_weight(weight, denominator):
    wg, wh = integer_weights(weight, denominator)
    assert isinstance(wg, int) and isinstance(wh, int) and wg <= denominator
    assert weight - 1 / denominator <= wh / wg <= weight


@pytest.mark.parametrize("bad", [0.5, 0, -2, float("nan"), float("inf")])
def test_integer_weights_refuse_what_is_not_a_weight_naming_the_option(bad):
    with pytest.raises(InputError, match="^--weight must be a finite number of at least 1"):
        integer_weights(bad, 100, "--weight")


def _plus_one(x):
    return x + 1


def test_jit_leaves_the_function_plain_when_compiled_code_is_off(monkeypatch):
    from searchkit import jit

    monkeypatch.setenv(NO_NUMBA_ENV, "1")
    assert jit(_plus_one) is _plus_one
    assert jit(inline="always")(_plus_one) is _plus_one


def test_jit_with_numba_off_never_imports_numba():
    import os
    import subprocess
    import sys

    code = (
        "import sys\nfrom searchkit import jit\n@jit\ndef f(x):\n    return x * 2\n"
        "assert f(21) == 42 and not hasattr(f, 'py_func')\nassert 'numba' not in sys.modules, 'numba imported'\n"
    )
    env = {**os.environ, NO_NUMBA_ENV: "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_jit_compiles_with_numba_keeping_the_plain_function(monkeypatch):
    pytest.importorskip("numba")
    from searchkit import jit

    monkeypatch.delenv(NO_NUMBA_ENV, raising=False)
    compiled = jit(_plus_one)
    assert compiled is not _plus_one and compiled.py_func is _plus_one
    assert compiled(41) == 42 and compiled.signatures  # ran compiled
    assert jit(inline="always")(_plus_one).targetoptions["inline"] == "always"
