"""The command line reads TREC files as it reads Parquet and CSV: a run as the
recommendations, qrels as the interactions, told by their content, whatever
their names; a file it cannot read gets rankwise's message, never the
engine's."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

import rankwise
from rankwise._text_table import frame_text
from rankwise.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "trec_eval"
RUN, QRELS = str(FIXTURES / "results.test"), str(FIXTURES / "qrels.test")


def _invoke(*arguments: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(arguments), input=stdin)


def _expected(run, qrels, metrics: list[str], **options) -> str:
    table = rankwise.evaluate(run, qrels, metrics, score_col="score", relevance_col="relevance", group_by="model",
                              **options)
    return frame_text(table) + "\n"


def test_evaluate_reads_a_trec_run_and_qrels_as_trec_eval_orders_them() -> None:
    result = _invoke("evaluate", RUN, QRELS, "-m", "map", "-m", "P_5", "--convention", "trec_eval")
    assert result.exit_code == 0, result.output
    expected = _expected(rankwise.read_run(RUN), rankwise.read_qrels(QRELS), ["map", "precision@5"],
                         convention="trec_eval")
    assert result.stdout == expected
    assert "STANDARD" in result.output and "0.178545" in result.output  # trec_eval's map: 0.1785


def test_a_trec_file_is_told_by_its_content_not_its_name(tmp_path: Path) -> None:
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.csv"
    shutil.copy(RUN, run)
    shutil.copy(QRELS, qrels)
    result = _invoke("evaluate", str(run), str(qrels), "-m", "ndcg@10")
    assert result.exit_code == 0, result.output
    assert result.stdout == _expected(rankwise.read_run(RUN), rankwise.read_qrels(QRELS), ["ndcg@10"])


def test_a_run_read_from_stdin() -> None:
    result = _invoke("evaluate", "-", QRELS, "-m", "mrr", stdin=Path(RUN).read_text())
    assert result.exit_code == 0, result.output
    assert result.stdout == _expected(rankwise.read_run(RUN), rankwise.read_qrels(QRELS), ["mrr"])


def test_the_fields_after_a_tag_are_reported_on_stderr() -> None:
    result = _invoke("evaluate", str(FIXTURES / "results.trunc"), QRELS, "-m", "map")
    assert result.exit_code == 0, result.output
    assert "warning: rankwise.read_run: 5 line(s) of" in result.stderr
    assert "have fields after the tag" in result.stderr


def test_qrels_and_run_given_in_trec_eval_order_are_refused_naming_the_order() -> None:
    result = _invoke("evaluate", QRELS, RUN, "-m", "map")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: rankwise: the recommendations file '{QRELS}' holds TREC qrels, which is the INTERACTIONS: rankwise "
        "evaluate takes RECOMMENDATIONS (the run) first and INTERACTIONS (the qrels) second; rankwise trec_eval "
        "takes them in trec_eval's order, QRELS RUN.\n")


def test_a_file_rankwise_cannot_read_names_the_formats_it_reads() -> None:
    unreadable = str(FIXTURES / "out.test")
    result = _invoke("evaluate", RUN, unreadable, "-m", "map")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: rankwise: cannot read the interactions file '{unreadable}': rankwise reads Parquet (.parquet), CSV "
        "(.csv, .tsv, .txt; optionally .gz), TREC qrels (qid iter docno rel) and TREC runs (qid Q0 docno rank score "
        "tag), and its first line is none of them: 'runid                 \\tall\\tSTANDARD'.\n")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    result = _invoke("evaluate", RUN, str(tmp_path / "qrels.test"), "-m", "map")
    assert result.exit_code == 1
    assert result.output == f"Error: rankwise: the interactions file '{tmp_path / 'qrels.test'}' does not exist.\n"


def test_a_malformed_line_is_reported_with_its_number(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.write_text("q1 Q0 d1 1 0.9 bm25\nq1 Q0 d2 2 high bm25\n")
    result = _invoke("evaluate", str(run), QRELS, "-m", "map")
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: rankwise.read_run: line 2 of '{run}' is not a TREC run line")


def test_compare_takes_the_runs_of_one_file_as_its_models(tmp_path: Path) -> None:
    run = tmp_path / "runs"
    lines = Path(RUN).read_text().splitlines()
    # a second run: the first one's scores reversed
    other = [" ".join([*line.split()[:4], str(-float(line.split()[4])), "REVERSED"]) for line in lines]
    run.write_text("\n".join(lines + other) + "\n")
    result = _invoke("compare", str(run), QRELS, "-m", "map", "--details", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert "REVERSED" in result.output and "STANDARD" in result.output


def test_check_reads_trec_files() -> None:
    result = _invoke("check", RUN, QRELS)
    assert result.exit_code == 0, result.output
    assert "error" not in result.output
