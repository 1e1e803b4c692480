"""Values that are equal in exact arithmetic but differ in their last bits, as an
engine's sums of the same terms in another order do, are a tie in compare: equal
within 1e-12 of the larger (docs/statistics.md, "Ties"). Whether two models that
give a user the same list tie on every run is tests/slow/test_compare_ties_on_every_run.py."""

from __future__ import annotations

import duckdb

from rankwise._render import renderer


def test_values_equal_but_for_the_last_bits_differ_by_zero() -> None:
    difference = renderer().call("_paired_difference", "m", "b")
    cases = [(0.1 + 0.2, 0.3, 0.0),  # 0.30000000000000004 and 0.3: equal in exact arithmetic
             (2.5, 2.5, 0.0), (0.0, 0.0, 0.0),
             (1.0, 1.0 + 1e-9, 1.0 - (1.0 + 1e-9)),  # a real difference stays
             (0.0, 1e-300, -1e-300)]
    for model, baseline, expected in cases:
        [(got,)] = duckdb.sql(f"select {difference} from (select {model!r}::double as m, {baseline!r}::double as b)").fetchall()
        assert got == expected, (model, baseline, got)
