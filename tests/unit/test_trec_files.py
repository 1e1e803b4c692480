"""rankwise.read_qrels and rankwise.read_run: TREC files as rankwise's tables,
every malformed line named with its file, number and what was expected."""

from __future__ import annotations

import gzip
import warnings
from pathlib import Path

import pandas as pd
import pytest

import rankwise
from rankwise.trec import trec_file_kind

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "trec_eval"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_qrels_are_read_with_rankwise_column_names_and_string_ids() -> None:
    qrels = rankwise.read_qrels(FIXTURES / "qrels.test")
    assert list(qrels.columns) == ["user_id", "item_id", "relevance"]
    assert len(qrels) == 3681
    assert qrels.iloc[2].tolist() == ["301", "CR93E-1282", 1]
    assert str(qrels["relevance"].dtype) == "int64"
    assert all(isinstance(value, str) for value in qrels["user_id"].head())
    assert qrels.groupby("user_id").size().to_dict() == {"301": 1708, "302": 1061, "303": 912}


def test_comment_lines_are_skipped_and_a_hash_inside_an_id_is_kept() -> None:
    plain = rankwise.read_qrels(FIXTURES / "qrels.test")
    with_comments = rankwise.read_qrels(FIXTURES / "qrels.test.with-comments")
    # the same judgments, but one docno written with a '#' inside
    assert with_comments.iloc[4].tolist() == ["301", "CR#93E-1860", 0]
    pd.testing.assert_frame_equal(plain.drop(index=4), with_comments.drop(index=4))
    docnos = rankwise.read_qrels(FIXTURES / "qrels.comment.test")["item_id"]
    assert docnos.iloc[0] == "msmarco_v2.1_doc_00_880019750#4_1633802806"


def test_blank_lines_and_indented_comments_are_skipped(tmp_path: Path) -> None:
    path = _write(tmp_path, "qrels", "\n# judged by A\nq1 0 d1 1\n\n   # again\nq1 0 d2 0\r\n")
    assert rankwise.read_qrels(path).values.tolist() == [["q1", "d1", 1], ["q1", "d2", 0]]


@pytest.mark.parametrize(("line", "problem"), [
    ("q1 0 d1", "3 fields where a qrels line has four"),
    ("q1 0 d1 1 extra", "5 fields where a qrels line has four"),
    ("q1 0 d1 1.5", "the relevance '1.5' is not an integer"),
    ("q1 0 d1 high", "the relevance 'high' is not an integer"),
])
def test_a_malformed_qrels_line_names_the_file_the_line_and_what_was_expected(tmp_path: Path, line: str,
                                                                             problem: str) -> None:
    path = _write(tmp_path, "qrels.txt", f"# header\nq1 0 d0 1\n{line}\nq1 0 d9 0\n")
    with pytest.raises(rankwise.MalformedLineError) as raised:
        rankwise.read_qrels(path)
    error = raised.value
    assert isinstance(error, rankwise.InputError)
    assert (error.path, error.line_number, error.line, error.expected) == (str(path), 3, line, "qid iter docno rel")
    assert str(error) == (f"rankwise.read_qrels: line 3 of '{path}' is not a TREC qrels line (qid iter docno rel): "
                          f"{problem}. The line: {line!r}.")


def test_negative_relevances_are_kept_as_written() -> None:
    qrels = rankwise.read_qrels(FIXTURES / "qrels.rel_level")
    assert qrels["relevance"].value_counts().sort_index().to_dict() == {-1: 304, 0: 2818, 1: 462, 2: 14, 3: 77, 4: 6}


def test_a_file_without_a_judgment_is_empty_input(tmp_path: Path) -> None:
    with pytest.raises(rankwise.EmptyInputError, match="holds no judgment"):
        rankwise.read_qrels(_write(tmp_path, "qrels", "# nothing yet\n\n"))


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(rankwise.InputError, match="does not exist"):
        rankwise.read_qrels(tmp_path / "absent")


def test_runs_are_read_with_rank_score_and_the_tag_as_model() -> None:
    run = rankwise.read_run(FIXTURES / "results.test")
    assert list(run.columns) == ["user_id", "item_id", "rank", "score", "model"]
    assert len(run) == 1500
    assert run.iloc[0].tolist() == ["301", "FR940202-2-00150", 104, 2.129133, "STANDARD"]
    assert [str(run[column].dtype) for column in ("rank", "score")] == ["int64", "float64"]


def test_the_fields_after_the_tag_are_reported_not_read() -> None:
    with pytest.warns(rankwise.RankwiseWarning, match=r"5 line\(s\) of .*results.trunc' have fields after the tag "
                                                      r"\(the first: line 1\)"):
        run = rankwise.read_run(FIXTURES / "results.trunc")
    assert len(run) == 584
    assert run.iloc[0].tolist() == ["301", "FBIS3-27619", 99, 2.138276, "STANDARD"]


@pytest.mark.parametrize(("line", "problem"), [
    ("q1 Q0 d1 1 0.5", "5 fields where a run line has six"),
    ("q1 Q0 d1 first 0.5 tag", "the rank 'first' is not an integer"),
    ("q1 Q0 d1 1 high tag", "the score 'high' is not a finite decimal number"),
    ("q1 Q0 d1 1 nan tag", "the score 'nan' is not a finite decimal number"),
    ("q1 Q0 d1 1 inf tag", "the score 'inf' is not a finite decimal number"),
    ("q1 Q0 d1 1 1e999 tag", "the score '1e999' is not a finite decimal number"),
    ("q1 Q0 d1 1 1_000 tag", "the score '1_000' is not a finite decimal number"),
])
def test_a_malformed_run_line_names_the_file_the_line_and_what_was_expected(tmp_path: Path, line: str,
                                                                           problem: str) -> None:
    path = _write(tmp_path, "run.txt", f"q1 Q0 d0 1 0.9 tag\n{line}\n")
    with pytest.raises(rankwise.MalformedLineError) as raised:
        rankwise.read_run(path)
    assert raised.value.line_number == 2
    assert raised.value.expected == "qid Q0 docno rank score tag"
    assert str(raised.value) == (f"rankwise.read_run: line 2 of '{path}' is not a TREC run line (qid Q0 docno rank "
                                 f"score tag): {problem}. The line: {line!r}.")


def test_a_line_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "run"
    path.write_bytes(b"q1 Q0 d0 1 0.9 tag\nq1 Q0 d\xff 2 0.8 tag\n")
    with pytest.raises(rankwise.MalformedLineError, match="line 2 .* it is not UTF-8 text"):
        rankwise.read_run(path)


def test_a_space_that_is_not_ascii_is_part_of_an_id(tmp_path: Path) -> None:
    # trec_eval splits on C's isspace only; a no-break space belongs to the docno
    path = _write(tmp_path, "qrels", "q1 0 doc\u00a0one 1\nq1\t0\tdoc\u2003two\t0\n")
    assert rankwise.read_qrels(path)["item_id"].tolist() == ["doc\u00a0one", "doc\u2003two"]


def test_gzipped_files_are_read(tmp_path: Path) -> None:
    path = tmp_path / "run.gz"
    path.write_bytes(gzip.compress(b"q1 Q0 d1 1 2.5 bm25\n"))
    assert rankwise.read_run(path).values.tolist() == [["q1", "d1", 1, 2.5, "bm25"]]


def test_the_tags_of_several_runs_become_the_model_column(tmp_path: Path) -> None:
    first = _write(tmp_path, "a.run", "q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 1 1.0 dense\n")
    second = _write(tmp_path, "b.run", "q1 Q0 d1 1 3.0 splade\n")
    run = rankwise.read_run([first, second], model_col="system")
    assert run[["item_id", "system"]].values.tolist() == [["d1", "bm25"], ["d2", "dense"], ["d1", "splade"]]


def test_two_files_with_one_tag_are_refused_or_named_by_their_files(tmp_path: Path) -> None:
    first = _write(tmp_path, "bm25.run", "q1 Q0 d1 1 2.0 Anserini\n")
    second = _write(tmp_path, "rm3.run", "q1 Q0 d1 1 3.0 Anserini\n")
    with pytest.raises(rankwise.InputError, match="both hold a run named 'Anserini'.*model_from='file'"):
        rankwise.read_run([first, second])
    run = rankwise.read_run([first, second], model_from="file")
    assert run["model"].tolist() == ["bm25.run", "rm3.run"]


def test_a_run_is_evaluated_as_trec_eval_evaluates_it() -> None:
    """out.test, trec_eval's output on these files: map 0.1785, P_5 0.2667."""
    table = rankwise.evaluate(rankwise.read_run(FIXTURES / "results.test"), rankwise.read_qrels(FIXTURES / "qrels.test"),
                              ["map", "precision@5"], score_col="score", relevance_col="relevance", group_by="model",
                              convention="trec_eval", confidence=None)
    assert [f"{value:.4f}" for value in table["value"]] == ["0.1785", "0.2667"]
    assert table["model"].tolist() == ["STANDARD", "STANDARD"]


@pytest.mark.parametrize(("text", "kind"), [
    ("# comment\n301 0 CR93E-10279 0\n", "qrels"),
    ("301\tQ0\tFR940202-2-00150\t104\t  2.129133\tSTANDARD\n", "run"),
    ("301 Q0 d 1 2.1 tag more junk\n", "run"),
    ("user_id,item_id,relevance\nu1,i1,1\n", None),
    ("user_id item_id rank score\n", None),
    ("u1 i1 1 0.5\n", None),
    ("", None),
])
def test_the_kind_of_a_trec_file_is_told_by_its_first_line(tmp_path: Path, text: str, kind: str | None) -> None:
    assert trec_file_kind(_write(tmp_path, "file", text)) == kind


def test_a_parquet_file_is_not_a_trec_file(tmp_path: Path) -> None:
    path = tmp_path / "recs.parquet"
    pd.DataFrame({"user_id": ["301"], "item_id": ["d"], "rank": [1]}).to_parquet(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert trec_file_kind(path) is None
