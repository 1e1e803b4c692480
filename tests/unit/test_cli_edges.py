"""The command line's edges: stdin and stdout, -h, errors in one line in the
command line's own names, an unwritable output found before any work, a start
without pandas; and the wrapper's: rank_col=None with a score column, polars
without pyarrow."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import subprocess
import sys
import typing

import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise._text_table import frame_text
from rankwise.cli import _FLAGS, _in_flag_names, main

RECOMMENDATIONS = "user_id,item_id,rank\nu1,a,1\nu1,b,2\nu2,b,1\n"
INTERACTIONS = "user_id,item_id\nu1,a\nu2,c\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "recs.csv").write_text(RECOMMENDATIONS)
    (tmp_path / "truth.csv").write_text(INTERACTIONS)
    return tmp_path


def _run(*args: str, stdin: str | bytes | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_dash_h_is_help() -> None:
    for args in (["-h"], ["evaluate", "-h"], ["check", "-h"], ["sql", "-h"]):
        result = _run(*args)
        assert result.exit_code == 0 and result.output.startswith("Usage: "), args
        assert "-h, --help" in result.output


@pytest.mark.parametrize("stdin_role", [0, 1])
def test_an_input_read_from_stdin_gives_what_the_file_gives(files, stdin_role: int) -> None:
    paths = [str(files / "recs.csv"), str(files / "truth.csv")]
    text = [RECOMMENDATIONS, INTERACTIONS][stdin_role]
    from_files = _run("evaluate", *paths, "-m", "precision@1", "-m", "mrr", "-o", "-")
    paths[stdin_role] = "-"
    from_stdin = _run("evaluate", *paths, "-m", "precision@1", "-m", "mrr", "-o", "-", stdin=text)
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == from_files.stdout
    assert pd.read_csv(io.StringIO(from_stdin.stdout))["value"].tolist() == [0.5, 0.5]


@pytest.mark.parametrize("written", [True, False], ids=["written to Parquet", "printed"])
def test_the_command_line_and_the_package_start_without_pandas(files, written: bool) -> None:
    """pandas is imported where a result becomes a pandas DataFrame, so that
    `rankwise sql`, `--help`, a run written to Parquet and a printed table
    start without it."""
    output = ["-o", str(files / "out.parquet")] if written else []
    program = ("import sys, rankwise, rankwise.cli\n"
               "from click.testing import CliRunner\n"
               f"result = CliRunner().invoke(rankwise.cli.main, ['evaluate', {str(files / 'recs.csv')!r}, "
               f"{str(files / 'truth.csv')!r}, '-m', 'ndcg@2', *{output!r}])\n"
               "assert result.exit_code == 0, result.output\n"
               "print(result.output)\n"
               "print('pandas' in sys.modules)")
    started = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    *printed, imported = started.stdout.rstrip("\n").splitlines()
    assert imported == "False"
    expected = rankwise.evaluate(str(files / "recs.csv"), str(files / "truth.csv"), ["ndcg@2"])
    if written:
        assert pd.read_parquet(files / "out.parquet")["metric_label"].tolist() == ["ndcg@2"]
    else:
        assert "\n".join(printed) == frame_text(expected) + "\n"


def test_both_inputs_from_stdin_are_refused(files) -> None:
    result = _run("evaluate", "-", "-", "-m", "ndcg", stdin=RECOMMENDATIONS)
    assert result.exit_code == 2 and "only one of RECOMMENDATIONS and INTERACTIONS" in result.output


@pytest.mark.parametrize("output_format", ["csv", "json", "parquet"])
def test_dash_o_dash_writes_the_result_to_stdout(files, output_format: str) -> None:
    result = _run("evaluate", str(files / "recs.csv"), str(files / "truth.csv"), "-m", "precision@1",
                  "-o", "-", "--format", output_format)
    assert result.exit_code == 0, result.output
    raw = result.stdout_bytes
    table = {"csv": lambda: pd.read_csv(io.BytesIO(raw)),
             "json": lambda: pd.DataFrame(json.loads(raw)),
             "parquet": lambda: duckdb.sql("select * from read_parquet($path)", params={"path": str(_saved(files, raw))}).df(),
             }[output_format]()
    assert table["metric_label"].tolist() == ["precision@1"]
    assert table["value"].tolist() == [0.5]


def _saved(folder, raw: bytes):
    path = folder / "stdout.parquet"
    path.write_bytes(raw)
    return path


def test_an_unwritable_output_is_refused_before_any_work(files, monkeypatch) -> None:
    evaluated = []
    monkeypatch.setattr("rankwise.cli.evaluate", lambda *args, **kwargs: evaluated.append(1))
    result = _run("evaluate", str(files / "recs.csv"), str(files / "truth.csv"), "-m", "ndcg",
                  "-o", "/nonexistent/dir/out.csv")
    assert result.exit_code == 2
    assert "the folder '/nonexistent/dir' does not exist or cannot be written to" in result.output
    assert "Traceback" not in result.output and evaluated == []


def test_errors_use_the_command_lines_names(files) -> None:
    (files / "twice.csv").write_text("user_id,item_id\nu1,a\nu1,a\n")
    result = _run("evaluate", str(files / "recs.csv"), str(files / "twice.csv"), "-m", "ndcg")
    assert result.exit_code == 1
    assert result.output.count("\n") == 1  # one line
    assert "pass --duplicate-interactions max to keep the highest relevance" in result.output
    result = _run("evaluate", str(files / "recs.csv"), str(files / "truth.csv"), "-m", "ndcg", "--log-base", "1")
    assert result.exit_code == 1 and "rankwise: option `--log-base` must be" in result.output


def test_every_option_name_becomes_its_flag() -> None:
    assert _in_flag_names("pass score_col, or `rank_col`; user_col='user'") == \
        "pass --score-col, or `--rank-col`; --user-col user"
    # names inside quotes are column names or values, and words are words
    assert _in_flag_names("column 'users' (the users, their gain)") == "column 'users' (the users, their gain)"
    assert _in_flag_names("the `users` option, users='both'") == "the `--users` option, --users both"


def test_every_python_option_has_a_flag() -> None:
    hints = typing.get_type_hints(rankwise.EvaluateOptions)
    flags = {parameter.opts[-1] for parameter in main.commands["evaluate"].params if parameter.opts}
    assert {_FLAGS[name] for name in hints} <= flags
    assert {"--group-by", "--partition-by", "--per-user", "--memory-limit", "--temp-directory"} <= flags


def test_rank_col_none_ranks_by_the_score() -> None:
    recommendations = pd.DataFrame({"user_id": ["u1", "u1"], "item_id": ["a", "b"], "score": [0.2, 0.9]})
    interactions = pd.DataFrame({"user_id": ["u1"], "item_id": ["b"]})
    result = rankwise.evaluate(recommendations, interactions, ["mrr"], rank_col=None, score_col="score")
    assert result["value"].tolist() == [1.0]


def test_a_polars_frame_without_pyarrow_names_the_extra(monkeypatch) -> None:
    """DuckDB reads polars through Arrow; without pyarrow its registration fails,
    as simulated here, and the message names the extra instead of the type."""
    polars = pytest.importorskip("polars")
    frame = polars.DataFrame({"user_id": ["u1"], "item_id": ["a"], "rank": [1]})
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "pyarrow" else real_find_spec(name, *args))

    def register_without_arrow(self, name, value):
        raise duckdb.InvalidInputException("polars needs pyarrow")

    monkeypatch.setattr(duckdb.DuckDBPyConnection, "register", register_without_arrow)
    with pytest.raises(rankwise.InputError, match=r'pyarrow is not installed: pip install "rankwise\[polars\]"'):
        rankwise.evaluate(frame, frame, ["ndcg"])


def test_evaluate_and_check_name_their_stages(files, monkeypatch) -> None:
    """The stages go to rankwise._progress.stages, which draws them on a terminal
    only after a second (tested in test_report.py); here, what is told."""
    told: list[str] = []

    @contextlib.contextmanager
    def recording():
        yield told.append

    monkeypatch.setattr("rankwise.cli.stages", recording)
    assert _run("evaluate", str(files / "recs.csv"), str(files / "truth.csv"), "-m", "ndcg").exit_code == 0
    assert _run("check", str(files / "recs.csv"), str(files / "truth.csv")).exit_code == 0
    assert told == ["checking the inputs and computing the metrics", "writing", "checking"]
