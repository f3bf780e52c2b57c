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
