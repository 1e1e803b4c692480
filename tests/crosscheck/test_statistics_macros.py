"""The statistics building blocks of macros/statistics/: Student's t and normal
p-values and the t quantile as SQL expressions, checked against scipy on DuckDB
(the same numbers on PostgreSQL and Spark: tests/engines/test_statistics_macros.py);
the numbers Jinja computes while rendering, against Python's math and scipy; the
resampling draws, against the algorithm they document and for the statistics a
randomization or bootstrap test relies on."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import duckdb
import numpy as np
import pytest
import sqlglot
from scipy import stats

from rankwise._render import renderer
from rankwise.errors import InvalidArgumentError

# The grid of the issue: df 4..10 and up to a million, t from 0 to 1000, both signs.
GRID_DF = [4, 5, 6, 7, 8, 9, 10, 20, 50, 100, 1000, 1e6]
GRID_T = [0, 1e-6, 0.5, 1, 2, 3, 5, 10, 40, 1e3]
GRID = [(sign * t, df) for df in GRID_DF for t in GRID_T for sign in (1, -1)]

# Denser: non-integer df on both sides of the method switch at 10 and 1e8, t
# across the centre and the tails.
DENSE_DF = [1, 1.5, 2, 3, 3.99, 4, 4.5, 9.5, 9.999, 10, 10.5, 13, 30, 64, 333.3, 1e4, 1e5, 9.99e7, 1e8, 1e9, 1e12]
DENSE_T = [*np.linspace(0, 12, 241)[1:], *np.logspace(-9, 4, 131)]
DENSE = [(float(t), df) for df in DENSE_DF for t in DENSE_T]

QUANTILE_P = [0.51, 0.6, 0.75, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.9999]
QUANTILE_DF = [1, 2, 3, 3.5, *GRID_DF, 2.5e3, 1e9]


def _run(expressions: dict[str, str], rows: Sequence[tuple], columns: Sequence[str]) -> dict[str, np.ndarray]:
    """The expressions over a table of `rows` (DOUBLE columns), in DuckDB."""
    connection = duckdb.connect()
    arrays = [[None if row[i] is None else float(row[i]) for row in rows] for i in range(len(columns))]
    connection.execute(f"create table grid as select {', '.join(f'unnest(?::double[]) as {c}' for c in columns)}", arrays)
    select = ", ".join(f"{sql} as {name}" for name, sql in expressions.items())
    result = connection.execute(f"select {select} from grid").fetchall()
    return {name: np.array([row[i] for row in result], dtype=float) for i, name in enumerate(expressions)}


def _t_p_value(rows: Sequence[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    got = _run({"p": renderer("duckdb").call("student_t_two_sided_p", "t", "df")}, rows, ["t", "df"])["p"]
    t, df = np.array(rows, dtype=float).T
    return got, 2 * stats.t.sf(np.abs(t), df)


def test_t_p_value_matches_scipy_on_the_grid_of_the_issue() -> None:
    got, expected = _t_p_value(GRID)
    assert np.abs(got - expected).max() < 1e-6


def test_t_p_value_error_where_each_method_applies() -> None:
    """The accuracy docs/statistics.md states: the continued fraction (df < 10)
    to 1e-9, the normal transformation with its erfc (df >= 10) to 1e-7. scipy's
    own t.sf is off by about 3e-9 at df = 1 and t near 0, so df < 4 is held to 1e-8."""
    rows = [row for row in DENSE if row[1] >= 1]
    got, expected = _t_p_value(rows)
    error = np.abs(got - expected)
    df = np.array([row[1] for row in rows])
    assert error[df < 4].max() < 1e-8
    assert error[(df >= 4) & (df < 10)].max() < 1e-9
    assert error[df >= 10].max() < 1e-7
    # the continued fraction keeps the relative accuracy of tiny p-values
    tail = (df < 10) & (expected > 1e-300)
    assert (np.abs(got[tail] / expected[tail] - 1)).max() < 1e-8


def test_t_p_value_extremes_and_nulls() -> None:
    rows = [(0.0, 5.0), (1e-200, 3.0), (-1e-200, 1e6), (1e60, 1.0), (-1e60, 5e8), (math.inf, 10.0),
            (3.0, None), (None, 3.0), (3.0, 0.5), (3.0, 0.0), (3.0, -2.0)]
    got = _run({"p": renderer("duckdb").call("student_t_two_sided_p", "t", "df")}, rows, ["t", "df"])["p"]
    assert got[:3].tolist() == [1.0, 1.0, 1.0]
    assert got[3:6].tolist() == [0.0, 0.0, 0.0]
    assert np.isnan(got[6:]).all()  # NULL


def test_t_p_value_is_symmetric_in_t_and_takes_numbers() -> None:
    sql = renderer("duckdb").call("student_t_two_sided_p", 2.5, 7)
    (value,) = duckdb.sql(f"select {sql}").fetchall()[0]
    assert value == pytest.approx(2 * stats.t.sf(2.5, 7), abs=1e-10)
    got, _ = _t_p_value([(t, df) for t, df in GRID if t > 0])
    mirrored, _ = _t_p_value([(-t, df) for t, df in GRID if t > 0])
    assert (got == mirrored).all()


def test_t_p_value_sql_stays_a_reasonable_size() -> None:
    """Every reference to t and df is repeated text (SQL has no local variables):
    with column names the expression is under 20 kB."""
    assert len(renderer("duckdb").call("student_t_two_sided_p", "t", "df")) < 20_000


def test_normal_p_value_matches_scipy_to_its_relative_accuracy() -> None:
    z = [0.0, 1e-12, 0.3, 1.0, 1.959963984540054, 2.5, 3.0, 5.0, 8.0, 12.0, 20.0, 30.0, 37.0, -1.5, -6.0]
    got = _run({"p": renderer("duckdb").call("normal_two_sided_p", "z")}, [(v,) for v in z], ["z"])["p"]
    expected = 2 * stats.norm.sf(np.abs(z))
    assert (np.abs(got / expected - 1) < 1.2e-7).all()
    beyond = _run({"p": renderer("duckdb").call("normal_two_sided_p", "z")}, [(60.0,), (None,)], ["z"])["p"]
    assert 0 < beyond[0] < 1e-300
    assert np.isnan(beyond[1])


def _quantiles(p: float, dfs: Sequence[float]) -> np.ndarray:
    sql = renderer("duckdb").call("student_t_quantile", p, "df")
    return _run({"q": sql}, [(df,) for df in dfs], ["df"])["q"]


@pytest.mark.parametrize("p", QUANTILE_P)
def test_t_quantile_matches_scipy(p: float) -> None:
    got = _quantiles(p, QUANTILE_DF)
    expected = stats.t.ppf(p, QUANTILE_DF)
    assert np.abs(got / expected - 1).max() < 1e-9


def test_t_quantile_below_one_half_and_at_one_half() -> None:
    # 1 - 0.975 is 0.025000000000000022 in binary: the two differ in the last digits only
    assert np.allclose(_quantiles(0.025, QUANTILE_DF), -_quantiles(0.975, QUANTILE_DF), rtol=1e-13, atol=0)
    assert (_quantiles(0.5, QUANTILE_DF) == 0).all()
    assert np.isnan(_quantiles(0.975, [0.5, -1.0])).all()


def test_t_quantile_of_a_confidence_interval() -> None:
    """t.interval(0.95, df) is (-q, q) with q = t.ppf(0.975, df)."""
    dfs = [4, 11, 29, 99, 499]
    low, high = stats.t.interval(0.95, dfs)
    got = _quantiles((1 + 0.95) / 2, dfs)
    assert np.allclose(got, high, rtol=1e-9, atol=0)
    assert np.allclose(-got, low, rtol=1e-9, atol=0)


@pytest.mark.parametrize("p", [0, 1, 1.5, -0.2, True, "0.975", None, math.nan])
def test_t_quantile_refuses_a_probability_outside_0_1(p: object) -> None:
    with pytest.raises(InvalidArgumentError, match="argument `p` must be a number strictly between 0 and 1"):
        renderer("duckdb").call("student_t_quantile", p, "df")


@pytest.mark.parametrize(
    ("macro", "arguments", "message"),
    [
        ("student_t_two_sided_p", ("", "df"), "argument `t` must be a SQL expression"),
        ("student_t_two_sided_p", ("t", None), "argument `df` must be a SQL expression"),
        ("student_t_two_sided_p", ("t", True), "argument `df` must be a SQL expression"),
        ("student_t_two_sided_p", ("t", math.inf), "argument `df` must be a SQL expression"),
        ("normal_two_sided_p", (["z"],), "argument `z` must be a SQL expression"),
        ("student_t_quantile", (0.975, "  "), "argument `df` must be a SQL expression"),
        ("resample_draw", ("user_key", "resample", 1.5), "argument `seed` must be an integer; got 1.5."),
        ("resample_draw", ("user_key", "resample", "7"), "argument `seed` must be an integer; got '7'."),
        ("resample_draw", ("user_key", "resample", False), "argument `seed` must be an integer"),
        ("resample_draw", (None, "resample", 0), "argument `user_key_int` must be a SQL expression"),
        ("resample_draw", ("user_key", 2.5, 0), "argument `resample` must be a SQL expression (a column name such as 'resample', as text) or an integer; got 2.5."),
        ("sign_flip", ("",), "argument `draw` must be a SQL expression"),
        ("poisson_one_weight", ({},), "argument `draw` must be a SQL expression"),
    ],
)
def test_arguments_are_checked_before_any_sql(macro: str, arguments: tuple, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=f"rankwise.{macro}: .*{re.escape(message)}"):
        renderer("duckdb").call(macro, *arguments)


@pytest.mark.parametrize("dialect", ["snowflake", "bigquery", "trino", "databricks", "redshift", "duckdb", "postgres", "spark"])
def test_every_macro_parses_in_each_dialect(dialect: str) -> None:
    """The warehouses not run in the tests are held to sqlglot's parser, as in
    test_dialects.py; BigQuery has no % operator (its dispatch writes mod())."""
    render = renderer(dialect)
    draw = render.call("resample_draw", "user_key", "resample", 1)
    expressions = [render.call("student_t_two_sided_p", "t", "df"), render.call("student_t_quantile", 0.975, "df"),
                   render.call("normal_two_sided_p", "z"), draw, render.call("sign_flip", "draw"),
                   render.call("poisson_one_weight", "draw")]
    for expression in expressions:
        sqlglot.parse_one(f"select {expression} from grid", read=dialect)
    assert ("%" in draw) == (dialect != "bigquery")


# --- the numbers computed while rendering -------------------------------------

def _math(name: str, *arguments: float) -> float:
    return renderer("duckdb").call(name, *arguments)


@pytest.mark.parametrize("x", [1e-300, 1e-20, 0.001, 0.3, 0.7071, 1.0, 1.4142, 2.0, 10.0, 12345.678, 1e300])
def test_render_time_ln(x: float) -> None:
    assert _math("_math_ln", x) == pytest.approx(math.log(x), rel=4e-16, abs=4e-16)


@pytest.mark.parametrize("y", [-0.4, -1e-9, 1e-300, 1e-17, 1e-9, 0.01, 0.49, 0.5, 3.0, 1e10])
def test_render_time_log1p(y: float) -> None:
    assert _math("_math_log1p", y) == pytest.approx(math.log1p(y), rel=4e-16)


@pytest.mark.parametrize("x", [-745.0, -700.0, -20.0, -1.0, -1e-10, 0.0, 0.5, 1.0, 20.0, 700.0])
def test_render_time_exp(x: float) -> None:
    assert _math("_math_exp", x) == pytest.approx(math.exp(x), rel=1e-15)


@pytest.mark.parametrize("x", [0.0, 0.1, 1.0, 1.5707963267948966, 2.0, 3.0, math.pi])
def test_render_time_cos(x: float) -> None:
    assert _math("_math_cos", x) == pytest.approx(math.cos(x), abs=4e-16)


@pytest.mark.parametrize("x", [1e-5, 0.5, 1.0, 1.5, 2.5, 4.9, 9.99, 10.0, 25.0, 1e4, 1e7])
def test_render_time_lgamma(x: float) -> None:
    # near its zeros at 1 and 2, ln Gamma is a difference of two numbers near 15
    assert _math("_math_lgamma", x) == pytest.approx(math.lgamma(x), rel=1e-14, abs=1e-14)


@pytest.mark.parametrize("df", [1.0, 2.5, 4.0, 9.9, 30.0, 2100.0])
def test_render_time_t_tail_and_quantile(df: float) -> None:
    for t in [1e-8, 0.1, 1.0, 1.6, 3.0, 10.0, 100.0]:
        if df == 1.0 and t < 1e-4:
            continue  # scipy's t.sf is off by about 3e-9 there (the exact value is 1/2 - atan(t)/pi)
        # the tail and the density the quantile's Newton steps use
        tail, density = _math("_math_student_t_tail_and_density", t, df, _math("_math_student_t_log_gamma_ratio", df))
        assert tail == pytest.approx(stats.t.sf(t, df), rel=1e-11)
        assert density == pytest.approx(stats.t.pdf(t, df), rel=1e-11)
    for p in [0.51, 0.9, 0.975, 0.9999]:
        start = _math("_math_student_t_quantile_start", 1 - p, df)
        assert _math("_math_student_t_quantile", 1 - p, df, start) == pytest.approx(stats.t.ppf(p, df), rel=1e-12)


# --- resampling draws -----------------------------------------------------------

MODULUS = 2**31 - 1


def _reference_draw(user: int, resample: int, seed: int) -> int:
    """The algorithm resample_draw documents, in Python's exact integers."""
    constants = [renderer("duckdb").call("_resample_round_constants", i) for i in range(6)]

    def mix(h: int, index: int) -> int:
        a, c = constants[index]
        return (h * (h + a) + c) % MODULUS

    h = mix(mix(seed % MODULUS, 0), 1)
    h = mix(mix((h + resample % MODULUS) % MODULUS, 2), 3)
    return mix(mix((h + user % MODULUS) % MODULUS, 4), 5)


def _draws(users: np.ndarray, resamples: np.ndarray, seed: int) -> np.ndarray:
    """resample_draw over users x resamples in DuckDB: an array [resample, user]."""
    sql = renderer("duckdb").call("resample_draw", "u", "r", seed)
    rows = duckdb.sql(
        f"select r, u, {sql} as draw from unnest(?::bigint[]) as a(u), unnest(?::bigint[]) as b(r) order by r, u",
        params=[users.tolist(), resamples.tolist()],
    ).fetchall()
    return np.array([row[2] for row in rows], dtype=np.int64).reshape(len(resamples), len(users))


def test_draws_are_the_documented_integer_hash() -> None:
    keys = [0, 1, 2, 17, -1, -12345, MODULUS - 1, MODULUS, 2**40 + 3, 2**62, -(2**62), 2**63 - 1, -(2**63)]
    for seed in (0, 1, -7, 2**40):
        got = duckdb.sql(
            f"select u, r, {renderer('duckdb').call('resample_draw', 'u', 'r', seed)} "
            "from unnest(?::bigint[]) as a(u), unnest(?::bigint[]) as b(r)",
            params=[keys, [0, 1, 999, -3]],
        ).fetchall()
        assert len(got) == len(keys) * 4
        assert [draw for _, _, draw in got] == [_reference_draw(u, r, seed) for u, r, _ in got]
        assert all(0 <= draw < MODULUS for _, _, draw in got)


def test_draws_of_neighbouring_users_and_resamples_look_independent() -> None:
    """Pairs of draws (16 x 16 cells of their top bits), of consecutive users in a
    resample and of consecutive resamples for a user: chi-square with 255 degrees
    of freedom (mean 255, sd 22.6), for two seeds. Affine rounds fail this by
    orders of magnitude."""
    users = np.arange(2001)
    for seed in (0, 20261123):
        draws = _draws(users, np.arange(500), seed) >> 27
        for first, second in ((draws[:, :-1], draws[:, 1:]), (draws[:-1, ::4], draws[1:, ::4])):
            cells = np.zeros((16, 16))
            np.add.at(cells, (first.ravel(), second.ravel()), 1)
            expected = cells.sum() / 256
            chi_square = ((cells - expected) ** 2 / expected).sum()
            assert 255 - 5 * 22.6 < chi_square < 255 + 5 * 22.6


def test_neighbouring_seeds_give_unrelated_draws() -> None:
    """Had the seed been added to the resample number, seed 1 would repeat seed 0
    one resample later; the draws of the two seeds share no more than chance."""
    users, resamples = np.arange(200), np.arange(100)
    seed_0, seed_1 = _draws(users, resamples, 0), _draws(users, resamples, 1)
    for shift in (0, 1, -1):
        a = seed_0[max(shift, 0):len(resamples) + min(shift, 0)]
        b = seed_1[max(-shift, 0):len(resamples) + min(-shift, 0)]
        assert abs(np.corrcoef(a.ravel() >> 30, b.ravel() >> 30)[0, 1]) < 5 / math.sqrt(a.size)
        assert (a == b).mean() < 1e-3


def test_sign_flips_of_ten_users_take_every_pattern_evenly() -> None:
    """Over 20,000 resamples, the 1024 sign patterns of 10 users: chi-square with
    1023 degrees of freedom (sd 45); and each user flips half the time."""
    sql = renderer("duckdb").call("sign_flip", renderer("duckdb").call("resample_draw", "u", "r", 5))
    flips = duckdb.sql(
        f"select r, sum({sql} * pow(2, u)::bigint) as pattern, avg({sql}) as share "
        "from range(10) as a(u), range(20000) as b(r) group by r",
    ).fetchall()
    counts = np.bincount([int(pattern) for _, pattern, _ in flips], minlength=1024)
    expected = len(flips) / 1024
    assert ((counts - expected) ** 2 / expected).sum() < 1023 + 5 * 45
    assert abs(np.mean([share for *_, share in flips]) - 0.5) < 5 * math.sqrt(0.25 / 200_000)


def test_poisson_weights_follow_poisson_one() -> None:
    sql = renderer("duckdb").call("poisson_one_weight", renderer("duckdb").call("resample_draw", "u", "r", 11))
    weights = np.array(
        duckdb.sql(f"select {sql} from range(1000) as a(u), range(300) as b(r)").fetchall(), dtype=int
    ).ravel()
    counts = np.bincount(weights, minlength=9)
    assert counts.sum() == 300_000 and weights.max() <= 8
    expected = stats.poisson.pmf(np.arange(8), 1.0) * len(weights)
    expected = np.append(expected, len(weights) - expected.sum())  # 8 stands for 8 and beyond
    merged_counts, merged_expected = np.append(counts[:6], counts[6:].sum()), np.append(expected[:6], expected[6:].sum())
    chi_square = ((merged_counts - merged_expected) ** 2 / merged_expected).sum()
    assert chi_square < 6 + 5 * math.sqrt(12)
    assert abs(weights.mean() - 1) < 5 * math.sqrt(1 / len(weights))


def test_poisson_thresholds_are_the_distribution_function() -> None:
    """Draw d gives the least k with d / 2^31 < F(k): at each threshold the count
    steps up by one."""
    sql = renderer("duckdb").call("poisson_one_weight", "d")
    for k in range(8):
        threshold = math.ceil(stats.poisson.cdf(k, 1.0) * 2**31)
        below, at = duckdb.sql(f"select {sql.replace('(d)', str(threshold - 1))}, {sql.replace('(d)', str(threshold))}").fetchall()[0]
        assert (below, at) == (k, k + 1)
    assert duckdb.sql(f"select {sql.replace('(d)', str(MODULUS - 1))}").fetchall()[0] == (8,)
