"""The t quantile's fits kept as numbers (macros/statistics/student_t_quantile_fits.sql)
are the fits the macros compute, exactly, and are the ones the stages read at
the confidence levels they are kept for."""

from __future__ import annotations

import pytest

from rankwise._render import renderer

LEVELS = [0.9, 0.95, 0.99]


def _upper_tail(confidence: float) -> float:
    # as the stages and _student_t_quantile_of compute it
    p = 0.5 + confidence / 2.0
    return 1.0 - p if p > 0.5 else p


def test_the_fits_kept_are_the_levels_people_ask_for() -> None:
    assert sorted(renderer().call("_student_t_quantile_fits")) == sorted(_upper_tail(level) for level in LEVELS)


@pytest.mark.parametrize("confidence", LEVELS)
def test_each_fit_kept_is_the_fit_computed(confidence: float) -> None:
    macros = renderer()
    kept = macros.call("_student_t_quantile_fits")[_upper_tail(confidence)]
    computed = macros.call("_student_t_quantile_fit", _upper_tail(confidence))
    assert [(piece["low"], piece["high"], list(piece["coefficients"])) for piece in kept] == \
        [(piece["low"], piece["high"], list(piece["coefficients"])) for piece in computed]


def test_another_level_is_computed() -> None:
    macros = renderer()
    assert list(macros.call("_student_t_quantile_pieces", _upper_tail(0.8))) == \
        list(macros.call("_student_t_quantile_fit", _upper_tail(0.8)))
