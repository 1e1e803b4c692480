"""TREC files: relevance judgments (qrels) and runs, read into the tables
:func:`rankwise.evaluate` takes.

A qrels line is ``qid iter docno rel`` and a run line ``qid Q0 docno rank score
tag``, fields separated by spaces or tabs, as trec_eval reads them
(``get_qrels.c``, ``get_trec_results.c``; a line starting with ``#`` is a comment,
as trec_eval 10.0 allows). The readers return pandas DataFrames with rankwise's
column names: ``user_id`` (the qid), ``item_id`` (the docno), ``relevance``; and
for a run ``rank``, ``score`` and the model column (the run's tag). Ids are
strings, as trec_eval compares them.

Nothing is dropped silently: a line that does not have its format's shape raises
:class:`rankwise.MalformedLineError` naming the file, the line number, the line
and what was expected; the fields trec_eval reserves after a run's tag are
reported in a :class:`rankwise.RankwiseWarning`.
"""

from __future__ import annotations

import gzip
import math
import os
import re
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

from .errors import EmptyInputError, InputError, InvalidArgumentError, MalformedLineError, RankwiseWarning

__all__ = ["read_qrels", "read_run", "trec_file_kind"]

QRELS_LINE = "qid iter docno rel"
RUN_LINE = "qid Q0 docno rank score tag"

_INTEGER = re.compile(r"[+-]?[0-9]+")
# A decimal number as C's atof reads one, without its hexadecimal, infinite and
# NaN forms (and without the underscores Python's float() accepts).
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# trec_eval splits fields on C's isspace (ASCII); str.split() would also split
# on these, which may be part of an id.
_NON_ASCII_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_ASCII_SPACE = re.compile("[ \t\r\v\f]+")
# How much of a file trec_file_kind reads to find its first line.
_SNIFF_BYTES = 1 << 16


def read_qrels(path: str | os.PathLike[str]) -> Any:
    """Reads a TREC qrels file: one judgment per line, ``qid iter docno rel``.

    Args:
        path: The file (``.gz`` is decompressed). Lines starting with ``#`` are
            comments; blank lines are skipped.

    Returns:
        A pandas DataFrame with one row per judgment, in the file's order:
        ``user_id`` (the qid, a string), ``item_id`` (the docno, a string) and
        ``relevance`` (an integer; 0 is judged not relevant). The ``iter``
        field, which trec_eval reads and ignores, is not kept. A negative
        relevance is kept as written: trec_eval reads it as a document of the
        pool left unjudged, and :func:`rankwise.evaluate` refuses it.

    Raises:
        rankwise.MalformedLineError: a line has other than four fields, or a
            relevance that is not an integer.
        rankwise.EmptyInputError: the file holds no judgment.
    """
    import pandas as pd

    qids: list[str] = []
    docnos: list[str] = []
    relevances: list[int] = []
    for number, line, fields in _data_lines(path, "read_qrels", QRELS_LINE):
        if len(fields) != 4:
            raise _malformed("read_qrels", path, number, line, QRELS_LINE,
                             f"{_count(len(fields))} where a qrels line has four")
        if not _INTEGER.fullmatch(fields[3]):
            raise _malformed("read_qrels", path, number, line, QRELS_LINE,
                             f"the relevance {fields[3]!r} is not an integer")
        qids.append(fields[0])
        docnos.append(fields[2])
        relevances.append(int(fields[3]))
    if not qids:
        raise EmptyInputError(f"rankwise.read_qrels: '{path}' holds no judgment (only comments or blank lines).",
                              table="qrels")
    return pd.DataFrame({
        "user_id": pd.Series(qids, dtype=str),
        "item_id": pd.Series(docnos, dtype=str),
        "relevance": pd.Series(relevances, dtype="int64"),
    })


def read_run(path_or_paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
             model_col: str = "model", model_from: Literal["tag", "file"] = "tag") -> Any:
    """Reads one or several TREC run files: one retrieved document per line,
    ``qid Q0 docno rank score tag``.

    trec_eval orders each query's documents by score, higher first, ties broken by
    docno descending; it reads neither ``Q0`` nor the rank. To evaluate as it
    does, pass ``score_col="score"`` to :func:`rankwise.evaluate` (whose
    ``ties='item_desc'``, the default, breaks ties the same way) and
    ``group_by=model_col``.

    Args:
        path_or_paths: A file or a list of files (``.gz`` is decompressed).
            Lines starting with ``#`` are comments; blank lines are skipped.
        model_col: The name of the column that tells the runs apart.
        model_from: What names a run in ``model_col``: its ``tag`` (the sixth
            field; a file holding several tags holds several runs), or its
            ``file`` name, for runs whose files share a tag.

    Returns:
        A pandas DataFrame with one row per retrieved document, in the files'
        order: ``user_id`` (the qid, a string), ``item_id`` (the docno, a
        string), ``rank`` (the integer as written), ``score`` (a float) and
        ``model_col``.

    Raises:
        rankwise.MalformedLineError: a line has fewer than six fields, a rank
            that is not an integer or a score that is not a finite number.
        rankwise.EmptyInputError: a file holds no retrieved document.
        rankwise.InputError: two files hold runs of the same name.

    Warns:
        rankwise.RankwiseWarning: lines with fields after the tag (trec_eval
            reserves them and reads none; neither does rankwise).
    """
    import pandas as pd

    paths = _paths(path_or_paths)
    if model_from not in ("tag", "file"):
        raise InvalidArgumentError(f"rankwise.read_run: argument `model_from` must be 'tag' or 'file'; got {model_from!r}.")
    if not isinstance(model_col, str) or model_col in ("user_id", "item_id", "rank", "score") or not model_col:
        raise InvalidArgumentError("rankwise.read_run: argument `model_col` must name a column other than user_id, "
                                   f"item_id, rank and score; got {model_col!r}.")
    frames = []
    owners: dict[str, str] = {}
    for path in paths:
        frame = _read_one_run(path, model_col, model_from)
        for model in frame[model_col].unique():
            if model in owners:
                fix = ("read them with model_from='file'" if model_from == "tag"
                       else "give the files different names")
                raise InputError(f"rankwise.read_run: '{owners[model]}' and '{path}' both hold a run named "
                                 f"{model!r} ({model_from}): their rows could not be told apart; {fix}.", table="run")
            owners[model] = str(path)
        frames.append(frame)
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def _read_one_run(path: str | os.PathLike[str], model_col: str, model_from: str) -> Any:
    import pandas as pd

    qids: list[str] = []
    docnos: list[str] = []
    ranks: list[int] = []
    scores: list[float] = []
    tags: list[str] = []
    longer = 0
    first_longer = 0
    for number, line, fields in _data_lines(path, "read_run", RUN_LINE):
        if len(fields) < 6:
            raise _malformed("read_run", path, number, line, RUN_LINE,
                             f"{_count(len(fields))} where a run line has six")
        if not _INTEGER.fullmatch(fields[3]):
            raise _malformed("read_run", path, number, line, RUN_LINE, f"the rank {fields[3]!r} is not an integer")
        score = float(fields[4]) if _NUMBER.fullmatch(fields[4]) else math.nan
        if not math.isfinite(score):
            raise _malformed("read_run", path, number, line, RUN_LINE,
                             f"the score {fields[4]!r} is not a finite decimal number")
        if len(fields) > 6:
            longer += 1
            first_longer = first_longer or number
        qids.append(fields[0])
        docnos.append(fields[2])
        ranks.append(int(fields[3]))
        scores.append(score)
        tags.append(fields[5])
    if not qids:
        raise EmptyInputError(f"rankwise.read_run: '{path}' holds no retrieved document (only comments or blank "
                              "lines).", table="run")
    if longer:
        warnings.warn(f"rankwise.read_run: {longer} line(s) of '{path}' have fields after the tag (the first: line "
                      f"{first_longer}); trec_eval reserves them and reads none, and neither does rankwise.",
                      RankwiseWarning, stacklevel=3)
    models = tags if model_from == "tag" else [Path(path).name] * len(qids)
    return pd.DataFrame({
        "user_id": pd.Series(qids, dtype=str),
        "item_id": pd.Series(docnos, dtype=str),
        "rank": pd.Series(ranks, dtype="int64"),
        "score": pd.Series(scores, dtype="float64"),
        model_col: pd.Series(models, dtype=str),
    })


def trec_file_kind(path: str | os.PathLike[str]) -> Literal["qrels", "run"] | None:
    """Whether a file is TREC qrels, a TREC run or neither, by its first line
    that is not blank or a comment: four fields ending in an integer relevance
    make qrels; six or more, whose fourth is an integer rank and fifth a decimal
    score, a run. None for anything else (a CSV line, a header, binary data)
    and for a file that cannot be read."""
    try:
        with _opened(path) as stream:
            head = stream.read(_SNIFF_BYTES)
    except OSError:
        return None
    if b"\0" in head:
        return None
    text = head.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if len(head) == _SNIFF_BYTES:
        lines = lines[:-1]  # possibly cut short
    split = _splitter(text)
    for line in lines:
        fields = split(line)
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) == 4 and _INTEGER.fullmatch(fields[3]):
            return "qrels"
        if len(fields) >= 6 and _INTEGER.fullmatch(fields[3]) and _NUMBER.fullmatch(fields[4]):
            return "run"
        return None
    return None


def _paths(path_or_paths: Any) -> list[str | os.PathLike[str]]:
    if isinstance(path_or_paths, (str, os.PathLike)):
        return [path_or_paths]
    if isinstance(path_or_paths, Sequence) and path_or_paths and all(
            isinstance(path, (str, os.PathLike)) for path in path_or_paths):
        return list(path_or_paths)
    raise InvalidArgumentError("rankwise.read_run: argument `path_or_paths` must be a path or a non-empty list of "
                               f"paths; got {path_or_paths!r}.")


def _opened(path: str | os.PathLike[str]) -> Any:
    return gzip.open(path, "rb") if str(path).lower().endswith(".gz") else open(path, "rb")


def _data_lines(path: str | os.PathLike[str], caller: str, expected: str) -> Iterator[tuple[int, str, list[str]]]:
    """(line number, line, fields) of each line that is neither blank nor a
    comment."""
    try:
        with _opened(path) as stream:
            data = stream.read()
    except FileNotFoundError:
        raise InputError(f"rankwise.{caller}: the file '{path}' does not exist.") from None
    except OSError as error:
        raise InputError(f"rankwise.{caller}: the file '{path}' cannot be read: {error.strerror or error}.") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        number = data.count(b"\n", 0, error.start) + 1
        start = data.rfind(b"\n", 0, error.start) + 1
        end = data.find(b"\n", error.start)
        line = data[start:end if end >= 0 else len(data)].decode("utf-8", errors="replace")
        raise _malformed(caller, path, number, line, expected, "it is not UTF-8 text") from None
    split = _splitter(text)
    for number, line in enumerate(text.split("\n"), start=1):
        fields = split(line)
        if fields and not fields[0].startswith("#"):
            yield number, line, fields


def _splitter(text: str) -> Any:
    """str.split, unless the text holds a space that is not ASCII (which
    str.split would take for a separator and trec_eval for part of an id)."""
    if _NON_ASCII_SPACE.search(text) is None:
        return str.split

    def split(line: str) -> list[str]:
        stripped = line.strip(" \t\r\v\f")
        return _ASCII_SPACE.split(stripped) if stripped else []

    return split


def _count(n: int) -> str:
    return f"{n} field{'' if n == 1 else 's'}"


def _malformed(caller: str, path: str | os.PathLike[str], number: int, line: str, expected: str,
               problem: str) -> MalformedLineError:
    kind = "qrels" if expected == QRELS_LINE else "run"
    shown = line.rstrip("\r")
    if len(shown) > 200:
        shown = shown[:200] + "..."
    return MalformedLineError(
        f"rankwise.{caller}: line {number} of '{path}' is not a TREC {kind} line ({expected}): {problem}. "
        f"The line: {shown!r}.",
        path=str(path), line_number=number, line=line, expected=expected, table=kind,
    )
