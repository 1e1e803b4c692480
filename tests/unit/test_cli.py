"""The `rankwise` command line."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd
import pytest
import sqlglot
from click.testing import CliRunner

import rankwise
from rankwise._text_table import frame_text
from rankwise.cli import main


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    recommendations = pd.DataFrame(
        {
            "model": ["a"] * 4 + ["b"] * 4,
            "user_id": ["u1", "u1", "u2", "u2"] * 2,
            "item_id": ["x", "y", "x", "z", "z", "y", "y", "x"],
            "score": [0.9, 0.5, 0.8, 0.1, 0.7, 0.6, 0.9, 0.2],
        }
    )
    interactions = pd.DataFrame({"user_id": ["u1", "u2", "u2"], "item_id": ["y", "x", "z"], "relevance": [2, 1, 3]})
    recommendations.to_parquet(tmp_path / "recs.parquet")
    interactions.to_csv(tmp_path / "truth.csv", index=False)
    return str(tmp_path / "recs.parquet"), str(tmp_path / "truth.csv")


ARGUMENTS = ["-m", "ndcg@2", "-m", "map", "-k", "1", "--group-by", "model", "--score-col", "score", "--relevance-col", "relevance"]


def _expected(files: tuple[str, str]) -> pd.DataFrame:
    return rankwise.evaluate(*files, ["ndcg@2", "map"], k=[1], group_by="model", score_col="score", relevance_col="relevance")


def test_evaluate_prints_the_table(files) -> None:
    result = CliRunner().invoke(main, ["evaluate", *files, *ARGUMENTS])
    assert result.exit_code == 0, result.output
    assert result.output == frame_text(_expected(files)) + "\n"


@pytest.mark.parametrize("suffix", ["parquet", "csv", "json"])
def test_evaluate_writes_a_file(files, tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"out.{suffix}"
    result = CliRunner().invoke(main, ["evaluate", *files, *ARGUMENTS, "-o", str(target)])
    assert result.exit_code == 0, result.output
    # json.loads, not pandas' reader, which parses floats to fewer digits.
    reader = {"parquet": pd.read_parquet, "csv": pd.read_csv, "json": lambda p: pd.DataFrame(json.loads(p.read_text()))}[suffix]
    written = reader(target)
    expected = _expected(files)
    assert list(written.columns) == list(expected.columns)
    assert (written["value"] - expected["value"]).abs().max() == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []


def test_a_failed_run_leaves_the_previous_output_file(files, tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("previous\n")
    result = CliRunner().invoke(main, ["evaluate", *files, "-m", "ndcg@2", "--rank-col", "no_such_column", "-o", str(target)])
    assert result.exit_code == 1
    assert target.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv", "recs.parquet", "truth.csv"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-m", "ndgc@10"], "Error: rankwise.evaluate: unknown metric 'ndgc@10'. Did you mean 'ndcg'?"),
        (["-m", "ndcg", "-k", "0"], "Error: rankwise.evaluate: argument `k` must be a positive integer"),
        (["-m", "ndcg", "--rank-col", "position"], "Error: rankwise: column 'position' (the rank) is not in the recommendations file"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line(files, arguments: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["evaluate", *files, *arguments])
    assert result.exit_code == 1
    assert result.output.startswith(message)
    assert len(result.output.strip().splitlines()) == 1


def test_a_missing_file_is_one_line(files) -> None:
    result = CliRunner().invoke(main, ["evaluate", files[0], "nowhere/truth.csv", "-m", "ndcg"])
    assert result.exit_code == 1
    assert result.output == "Error: rankwise: the interactions file 'nowhere/truth.csv' does not exist.\n"


@pytest.mark.parametrize(("dialect", "quote"), [("duckdb", '"'), ("postgres", '"'), ("spark", "`")])
def test_sql_prints_the_query_for_a_dialect(dialect: str, quote: str) -> None:
    result = CliRunner().invoke(main, ["sql", "recs", "Truth", "-m", "ndcg@10", "--dialect", dialect])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == rankwise.sql("recs", "Truth", ["ndcg@10"], dialect=dialect)
    # a plain lower-case name as it is, any other quoted
    assert "from recs" in result.output
    assert f"from {quote}Truth{quote}" in result.output
    sqlglot.parse_one(result.output, read=dialect)


def test_the_printed_sql_runs(files) -> None:
    con = duckdb.connect()
    con.sql(f"create table recs as select * from read_parquet('{files[0]}')")
    con.sql(f"create table truth as select * from read_csv('{files[1]}')")
    result = CliRunner().invoke(main, ["sql", "recs", "truth", *ARGUMENTS])
    printed = con.sql(result.output).df().sort_values(["model", "metric", "k"]).reset_index(drop=True)
    expected = _expected(files).sort_values(["model", "metric", "k"]).reset_index(drop=True)
    assert (printed["value"] - expected["value"]).abs().max() < 1e-12


def test_check_reports_and_exits_1_on_errors(tmp_path: Path) -> None:
    pd.DataFrame({"user_id": ["u", "u"], "item_id": ["a", "a"], "rank": [1, 2]}).to_csv(tmp_path / "r.csv", index=False)
    pd.DataFrame({"user_id": ["u", "v"], "item_id": ["a", "b"]}).to_csv(tmp_path / "t.csv", index=False)
    result = CliRunner().invoke(main, ["check", str(tmp_path / "r.csv"), str(tmp_path / "t.csv")])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("error: rankwise: 2 rows of the recommendations file")
    assert "items listed twice in one list" in lines[0]
    assert lines[1].startswith("note: 1 users have interactions but no recommendations (e.g. v)")


def test_check_of_clean_files(files) -> None:
    result = CliRunner().invoke(main, ["check", *files, "--score-col", "score", "--relevance-col", "relevance", "--group-by", "model"])
    assert result.exit_code == 0, result.output
    assert result.output == "no problems found\n"


def test_evaluate_takes_a_convention_memory_settings_and_no_validate(files, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["evaluate", *files, *ARGUMENTS, "--convention", "ranx", "--memory-limit", "256MB",
                                       "--temp-directory", str(tmp_path), "--no-validate"])
    assert result.exit_code == 0, result.output
    expected = rankwise.evaluate(*files, ["ndcg@2", "map"], k=[1], group_by="model", score_col="score",
                                 relevance_col="relevance", convention="ranx")
    assert result.output == frame_text(expected) + "\n"


def test_evaluate_reads_the_catalog_and_the_train_interactions(files, tmp_path: Path) -> None:
    items = pd.DataFrame({"item_id": ["x", "y", "z", "w"]})
    train = pd.DataFrame({"user_id": ["t1", "t1", "t2"], "item_id": ["x", "y", "x"]})
    items.to_csv(tmp_path / "items.csv", index=False)
    train.to_parquet(tmp_path / "train.parquet")
    arguments = ["-m", "coverage@1", "-m", "gini@2", "-m", "novelty@2", "-m", "long_tail_share@2", "--group-by", "model",
                 "--score-col", "score", "--relevance-col", "relevance", "--items", str(tmp_path / "items.csv"), "--train", str(tmp_path / "train.parquet"),
                 "--head-share", "0.5", "--novelty-popularity", "interactions"]
    result = CliRunner().invoke(main, ["evaluate", *files, *arguments])
    assert result.exit_code == 0, result.output
    expected = rankwise.evaluate(*files, ["coverage@1", "gini@2", "novelty@2", "long_tail_share@2"], group_by="model",
                                 score_col="score", relevance_col="relevance", items=items, train=train, head_share=0.5,
                                 novelty_popularity="interactions")
    assert result.output == frame_text(expected) + "\n"


def test_evaluate_takes_the_item_features_of_intra_list_diversity(files, tmp_path: Path) -> None:
    """--item-feature-cols repeats, as --group-by does; serendipity reads both inputs."""
    items = pd.DataFrame({"item_id": ["x", "y", "z", "w"], "genre": ["a", "a", "b", "b"], "era": [1, 2, 1, 2]})
    train = pd.DataFrame({"user_id": ["t1", "t1", "t2"], "item_id": ["x", "y", "x"]})
    items.to_csv(tmp_path / "items.csv", index=False)
    train.to_csv(tmp_path / "train.csv", index=False)
    arguments = ["-m", "intra_list_diversity@2", "-m", "serendipity@2", "--group-by", "model", "--score-col", "score",
                 "--relevance-col", "relevance", "--items", str(tmp_path / "items.csv"), "--train",
                 str(tmp_path / "train.csv"), "--item-distance", "hamming", "--item-feature-cols", "genre",
                 "--item-feature-cols", "era", "--diversity-denominator", "list_length"]
    result = CliRunner().invoke(main, ["evaluate", *files, *arguments])
    assert result.exit_code == 0, result.output
    expected = rankwise.evaluate(*files, ["intra_list_diversity@2", "serendipity@2"], group_by="model",
                                 score_col="score", relevance_col="relevance", items=items, train=train,
                                 item_distance="hamming", item_feature_cols=["genre", "era"],
                                 diversity_denominator="list_length")
    assert result.output == frame_text(expected) + "\n"


def test_exposure_prints_and_writes_each_item_groups_shares(files, tmp_path: Path) -> None:
    items = pd.DataFrame({"item_id": ["x", "y", "z", "w"], "provider": ["p", "p", "q", "q"]})
    items.to_csv(tmp_path / "items.csv", index=False)
    arguments = ["--items", str(tmp_path / "items.csv"), "--item-group-col", "provider", "-k", "1", "-k", "2",
                 "--group-by", "model", "--score-col", "score", "--relevance-col", "relevance", "--exposure-model", "rbp"]
    expected = rankwise.exposure_by_item_group(*files, items, [1, 2], item_group_col="provider", group_by="model",
                                               score_col="score", relevance_col="relevance", exposure_model="rbp")
    printed = CliRunner().invoke(main, ["exposure", *files, *arguments])
    assert printed.exit_code == 0, printed.output
    assert printed.output == frame_text(expected) + "\n"
    target = tmp_path / "exposure.json"
    written = CliRunner().invoke(main, ["exposure", *files, *arguments, "-o", str(target)])
    assert written.exit_code == 0, written.output
    assert pd.DataFrame(json.loads(target.read_text())).equals(expected)


def test_exposure_without_its_group_column_names_the_flag(files, tmp_path: Path) -> None:
    items = pd.DataFrame({"item_id": ["x", "y", "z"], "provider": ["p", "p", "q"]})
    items.to_csv(tmp_path / "items.csv", index=False)
    missing = CliRunner().invoke(main, ["exposure", *files, "--items", str(tmp_path / "items.csv")])
    assert missing.exit_code == 2 and "--item-group-col" in missing.output
    unknown = CliRunner().invoke(main, ["exposure", *files, "--items", str(tmp_path / "items.csv"),
                                        "--item-group-col", "genre", "--score-col", "score", "--group-by", "model"])
    assert unknown.exit_code != 0 and "genre" in unknown.output and "Traceback" not in unknown.output


def test_a_metric_without_its_input_names_the_flag(files) -> None:
    result = CliRunner().invoke(main, ["evaluate", *files, "-m", "arp@2", "--score-col", "score", "--relevance-col",
                                       "relevance"])
    assert result.exit_code != 0
    assert result.output == ("Error: rankwise.evaluate: arp needs the `--train` input (the interactions the model was "
                             "trained on, for the items' popularity).\n")


def test_compare_takes_the_train_interactions_of_a_list_level_metric(files, tmp_path: Path) -> None:
    pd.DataFrame({"user_id": ["t1", "t2", "t3"], "item_id": ["x", "x", "y"]}).to_csv(tmp_path / "train.csv", index=False)
    arguments = ["-m", "arp@2", "-m", "ndcg@2", "--score-col", "score", "--relevance-col", "relevance", "--baseline", "a"]
    target = tmp_path / "comparison.csv"
    result = CliRunner().invoke(main, ["compare", *files, *arguments, "--train", str(tmp_path / "train.csv"), "--details",
                                       "-o", str(target)])
    assert result.exit_code == 0, result.output
    expected = rankwise.compare(*files, ["arp@2", "ndcg@2"], baseline="a", score_col="score", relevance_col="relevance",
                                train=str(tmp_path / "train.csv"))
    written = pd.read_csv(target)
    assert list(written["metric_label"]) == ["arp@2", "ndcg@2"]
    assert list(written["n_users"]) == list(expected["n_users"]) == [2, 2]
    assert (written["diff"] - expected["diff"]).abs().max() < 1e-12


def _warnings_given(call) -> list[str]:
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(warning.message) for warning in caught if issubclass(warning.category, rankwise.RankwiseWarning)]


@pytest.mark.parametrize("command", ["evaluate", "report"])
def test_a_warning_is_one_line_given_once(files, tmp_path: Path, command: str) -> None:
    """The relevance column left unread: `report` evaluates the inputs twice
    (the means and the per-user values), and says so once, as `evaluate` does,
    in the command line's names, without Python's file:line prefix."""
    arguments = ["-m", "ndcg@2", "--group-by", "model", "--score-col", "score"]
    given = _warnings_given(lambda: rankwise.evaluate(*files, ["ndcg@2"], group_by="model", score_col="score"))
    assert len(given) == 1 and "Pass relevance_col='relevance' to use it." in given[0]
    extra = ["-o", str(tmp_path / "r.html")] if command == "report" else []
    result = CliRunner().invoke(main, [command, *files, *arguments, *extra])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert lines == ["warning: " + given[0].replace("relevance_col is not given", "--relevance-col is not given")
                     .replace("Pass relevance_col='relevance'", "Pass --relevance-col relevance")]
    assert "RankwiseWarning" not in result.stderr and ".py:" not in result.stderr


def test_the_python_report_warns_once_of_what_its_evaluations_share(files, tmp_path: Path) -> None:
    given = _warnings_given(lambda: rankwise.report(*files, ["ndcg@2"], group_by="model", score_col="score",
                                                    path=tmp_path / "r.html"))
    assert len(given) == 1 and "looks like a relevance" in given[0]


def test_compare_gives_its_warning_as_one_line(files, tmp_path: Path) -> None:
    pd.DataFrame({"user_id": ["u1"], "item_id": ["x"]}).to_csv(tmp_path / "train.csv", index=False)
    result = CliRunner().invoke(main, ["compare", *files, "-m", "ndcg@2", "--score-col", "score",
                                       "--relevance-col", "relevance", "--train", str(tmp_path / "train.csv")])
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stderr.splitlines() if line]
    assert line.startswith("warning: rankwise.compare: `--train` is given but none of the metrics asked reads it (")
    assert line.endswith("); it is not read or checked.")
