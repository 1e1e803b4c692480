"""`rankwise trec_eval`: trec_eval's own quicktest (its Makefile), with
`rankwise trec_eval` in place of `./trec_eval`, every line of the measures
rankwise computes equal to trec_eval's expected output, and so under -J; its
options, measure parameters and refusals."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from rankwise._trec_eval import MEASURE_SETS, _BY_NAME, _lines, _Requested, mapping_table
from rankwise.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "trec_eval"
REPO_ROOT = Path(__file__).resolve().parents[2]

# The measures of trec_eval's sets that rankwise computes today; the other,
# relstring, is refused (test_the_measures_rankwise_lacks_are_refused_and_listed).
OFFICIAL = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
            "iprec_at_recall", "P"]
ALL_TREC = [*OFFICIAL, "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
            "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "success", "map_cut", "ndcg_cut", "relative_P", "set_P", "set_relative_P",
            "set_recall", "set_map", "set_F", "num_nonrel_judged_ret"]


def _measures(names: list[str]) -> list[str]:
    return [argument for name in names for argument in ("-m", name)]


def _line_names(arguments: list[str]) -> set[str]:
    """The names of the lines the -m arguments print (P_5 ... P_1000)."""
    given = [value for flag, value in zip(arguments, arguments[1:]) if flag == "-m"]
    given += [argument[2:] for argument in arguments if argument.startswith("-m") and argument != "-m"]
    names = set()
    for value in given:
        name, _, parameters = value.partition(".")
        names |= {line.name for line in _lines(_Requested(_BY_NAME[name], parameters or None))}
    return names


def _trec_eval(*arguments: str):
    return CliRunner().invoke(main, ["trec_eval", *arguments])


# trec_eval's Makefile, quicktest: each line's options, files and expected output.
QUICKTEST = {
    "default": ([], "qrels.test", "results.test", "out.test"),
    "qrels with comments": ([], "qrels.test.with-comments", "results.test", "out.test"),
    "ids with #": ([], "qrels.comment.test", "results.comment.test", "out.comment.test"),
    "all_trec": (["all_trec"], "qrels.test", "results.test", "out.test.a"),
    "all_trec -q": (["all_trec", "-q"], "qrels.test", "results.test", "out.test.aq"),
    "all_trec -q -c": (["all_trec", "-q", "-c"], "qrels.test", "results.trunc", "out.test.aqc"),
    "all_trec -q -c -M100": (["all_trec", "-q", "-c", "-M100"], "qrels.test", "results.trunc", "out.test.aqcM"),
    # relstring aside (test_the_measures_rankwise_lacks_are_refused_and_listed)
    "all_trec -q -l2": (["all_trec", "-q", "-l2"], "qrels.rel_level", "results.test", "out.test.aql"),
}


# Not quicktest lines: -J on the same files, trec_eval 10.0's output built from the same commit (README.md).
MINUS_J = {
    "all_trec -q -c -J": (["all_trec", "-q", "-c", "-J"], "qrels.test", "results.trunc", "out.test.aqcJ"),
    "all_trec -q -l2 -J": (["all_trec", "-q", "-l2", "-J", "no rbp"], "qrels.rel_level", "results.test",
                           "out.test.aqlJ"),
}


@pytest.mark.parametrize("case", QUICKTEST)
def test_trec_eval_quicktest(case: str) -> None:
    _check_trec_eval_s_output(*QUICKTEST[case])


@pytest.mark.parametrize("case", MINUS_J)
def test_minus_j_prints_trec_eval_s_output(case: str) -> None:
    """-J drops the unjudged documents (most of results.test's, the -1 lines of qrels.rel_level); with -c, topic 302,
    which results.trunc lacks, is read by trec_eval as a run of one unjudged document, which -J drops too: its
    iprec_at_recall_0.00 and 11pt_avg are 0 / 0, printed -nan, and so are their summaries."""
    options, _, _, expected_file = MINUS_J[case]
    if "-c" in options:
        assert "-nan" in (FIXTURES / expected_file).read_text()
    _check_trec_eval_s_output(*MINUS_J[case])


def _check_trec_eval_s_output(options: list[str], qrels: str, run: str, expected_file: str) -> None:
    measures = ALL_TREC if "all_trec" in options else OFFICIAL
    flags = [option for option in options if option.startswith("-")]
    arguments = [*_measures(measures), *flags]
    result = _trec_eval(*arguments, str(FIXTURES / qrels), str(FIXTURES / run))
    assert result.exit_code == 0, result.output
    names = _line_names(arguments)
    expected = [line for line in (FIXTURES / expected_file).read_text().splitlines()
                if line.split("\t")[0].strip() in names]
    # every line rankwise prints is one trec_eval prints
    assert {line.split("\t")[0].strip() for line in expected} == names
    assert result.stdout.splitlines() == expected


def test_trec_eval_quicktest_measure_parameters() -> None:
    """The line of measure parameters: P.5,7,3, recall.20,2000, ndcg.1=3,2=9,4=4.5 (a gain per level),
    ndcg_cut.10,20,23.4 (read as trec_eval reads it: 23), success.2,5,20."""
    arguments = ["-q", "-m", "P.5,7,3", "-m", "recall.20,2000", "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23.4",
                 "-msuccess.2,5,20"]
    result = _trec_eval(*arguments, str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test"))
    assert result.exit_code == 0, result.output
    names = _line_names(arguments)
    assert "ndcg_1=3,2=9,4=4.5" in names and "ndcg_cut_23" in names
    expected = [line for line in (FIXTURES / "out.test.meas_params").read_text().splitlines()
                if line.split("\t")[0].strip() in names]
    assert len(expected) == 4 * len(names)
    assert result.stdout.splitlines() == expected


def test_the_output_keeps_trec_eval_s_layout() -> None:
    result = _trec_eval("-m", "num_q", "-m", "map", "-m", "runid", str(FIXTURES / "qrels.test"),
                        str(FIXTURES / "results.test"))
    assert result.stdout == "runid                 \tall\tSTANDARD\nnum_q                 \tall\t3\nmap                   \tall\t0.1785\n"


def test_the_measures_rankwise_lacks_are_refused_and_listed() -> None:
    result = _trec_eval("-m", "all_trec", str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test"))
    assert result.exit_code == 1
    assert result.output.startswith(
        "Error: rankwise trec_eval: rankwise does not compute these trec_eval measures yet: relstring. "
        "Of those asked, it computes: -m runid -m num_q -m num_ret")
    everything = _trec_eval("-m", "all_trec", "-m", "P.5", str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test"))
    missing = everything.output.split("yet: ")[1].split(". Of those")[0].split(", ")
    assert sorted(missing) == sorted(set(MEASURE_SETS["all_trec"]) - set(ALL_TREC))
    assert "-m P.5 -m recall" in everything.output
    # trec_eval's default set, official, is computed whole
    assert _trec_eval(str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test")).exit_code == 0


def test_a_measure_s_summary_is_its_metric_s_in_the_registry() -> None:
    """trec_eval's `all` line of the counts is their total and of gm_map and gm_bpref a geometric mean: the
    registry's `summary` of their metrics, which rankwise.evaluate's means follow."""
    from rankwise._trec_eval import _summary

    for name, summary in (("num_ret", "sum"), ("num_rel", "sum"), ("num_rel_ret", "sum"),
                          ("num_nonrel_judged_ret", "sum"), ("gm_map", "geometric"), ("gm_bpref", "geometric"),
                          ("bpref", "mean"), ("map", "mean"), ("P", "mean")):
        lines = _lines(_Requested(_BY_NAME[name], None))
        assert {_summary(line.metric) for line in lines} == {summary}, name


def _with_counts(*arguments: str) -> dict[tuple[str, str], float]:
    """The lines of each query of trec_eval's test files for `arguments`, with the counts."""
    result = _trec_eval("-q", *arguments, "-m", "num_ret", "-m", "num_rel", "-m", "num_rel_ret",
                        str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test"))
    assert result.exit_code == 0, result.output
    return _values(result.stdout)


def _counts(values: dict[tuple[str, str], float]) -> dict[str, tuple[float, float, float]]:
    """Each query's num_ret, num_rel and num_rel_ret (trec_eval's out.test holds them)."""
    counts = {query: tuple(values[(name, query)] for name in ("num_ret", "num_rel", "num_rel_ret"))
              for _, query in values if query != "all"}
    assert len(counts) == 3
    return counts


def test_set_f_takes_its_weight_of_recall() -> None:
    """set_F.x: (x + 1) P R / (x P + R) (m_set_F.c), which is (x + 1) h / (n + x R), from the counts trec_eval
    prints; set_F.1 is set_F."""
    values = _with_counts("-m", "set_F.0.5")
    for query, (n, relevant, hits) in _counts(values).items():
        assert values[("set_F_0.5", query)] == pytest.approx(1.5 * hits / (n + 0.5 * relevant), abs=5e-5), query
    default = _values(_trec_eval("-m", "set_F", str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test")).stdout)
    weighted = _values(_trec_eval("-m", "set_F.1", str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test")).stdout)
    assert weighted == {("set_F_1", "all"): default[("set_F", "all")]}


def test_utility_s_fourth_weight_reads_the_collection_size() -> None:
    """utility.a,b,c,d with -N: d times the documents neither retrieved nor relevant among the collection's N
    (m_utility.c), from the counts trec_eval prints (out.test holds them)."""
    values = _with_counts("-N", "1000", "-m", "utility.2,-1,-0.5,0.01")
    queries = _counts(values)
    for query, (n, relevant, hits) in queries.items():
        expected = 2 * hits - (n - hits) - 0.5 * (relevant - hits) + 0.01 * (1000 - n - relevant + hits)
        assert values[("utility_2,-1,-0.5,0.01", query)] == pytest.approx(expected, abs=5e-5), query
    without = _values(_trec_eval("-q", "-m", "utility.2,-1,-0.5,0.01", str(FIXTURES / "qrels.test"),
                                 str(FIXTURES / "results.test")).stdout)
    # without -N the collection holds no document, as trec_eval's default 0
    for query in queries:
        assert without[("utility_2,-1,-0.5,0.01", query)] == pytest.approx(
            values[("utility_2,-1,-0.5,0.01", query)] - 0.01 * 1000, abs=5e-5), query


@pytest.mark.parametrize(("arguments", "message"), [
    (["-m", "bogus"], "unknown measure 'bogus'."),
    (["-m", "P_10"], "unknown measure 'P_10'. trec_eval gives parameters after a dot: -m P.10."),
    (["-m", "map.5"], "-m map.5: map takes no parameter."),
    (["-m", "P."], "-m P.: no parameter after the '.'."),
    (["-m", "P.0"], "-m P.0: the cutoff '0' is not a positive integer."),
    (["-m", "P.5,5"], "-m P.5,5: a cutoff is given twice."),
    (["-m", "P.5", "-m", "P.10"], "trec_eval reads the first parameters of a measure only; give them in one, such "
                                  "as -m P.5,10."),
    (["-m", "official.5"], "official is a set of measures, which takes no parameter."),
    (["-m", "ndcg.x=3"], "'x' is not a relevance level"),
    (["-m", "ndcg.1=-2"], "the gain -2.0 of level 1 is negative"),
    (["-m", "ndcg.1"], "write each parameter as name=number"),
    (["-m", "rbp.q=0.5"], "with the parameter p (the persistence) only, not 'q'"),
    (["-m", "rbp.p=1.5"], "p must be above 0 and below 1"),
    (["-m", "set_F.1,2"], "-m set_F.1,2: set_F takes one weight (trec_eval reads the first only)."),
    (["-m", "rbp_resid.1=2"], "rankwise computes rbp_resid with the parameter p (the persistence) only, not '1'"),
    (["-m", "utility.1,2"], "-m utility.1,2: utility takes four numbers"),
    (["-m", "11pt_avg.0.5"], "rankwise does not compute these trec_eval measures yet: 11pt_avg."),
    (["-m", "map", "-M", "0"], "-M must be a positive number of documents; got 0."),
])
def test_bad_measures_and_parameters_are_refused(arguments: list[str], message: str) -> None:
    result = _trec_eval(*arguments, str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test"))
    assert result.exit_code == 1, result.output
    assert message in result.output


def _write(folder: Path, name: str, lines: list[str]) -> str:
    path = folder / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _values(output: str) -> dict[tuple[str, str], float]:
    return {(line.split("\t")[0].strip(), line.split("\t")[1]): float(line.split("\t")[2])
            for line in output.splitlines()}


def test_rbp_takes_its_persistence(tmp_path: Path) -> None:
    """By hand: relevant documents at ranks 1 and 3, p = 0.5: rbp = (1 - 0.5) (1 + 0.25)."""
    qrels = _write(tmp_path, "qrels", ["q1 0 a 1", "q1 0 c 1"])
    run = _write(tmp_path, "run", ["q1 Q0 a 1 3 r", "q1 Q0 b 2 2 r", "q1 Q0 c 3 1 r"])
    result = _trec_eval("-q", "-m", "rbp.p=0.5", "-m", "rbp", qrels, run)
    assert result.exit_code == 0, result.output
    assert _values(result.stdout)[("rbp_p=0.5", "q1")] == 0.625


def test_a_gain_map_gives_each_level_its_gain(tmp_path: Path) -> None:
    """By hand: ndcg.2=5: d1, of level 2, gains 5 and d2, of level 1, 1; the run ranks d2 first."""
    qrels = _write(tmp_path, "qrels", ["q2 0 d1 2", "q2 0 d2 1"])
    run = _write(tmp_path, "run", ["q2 Q0 d2 1 2 r", "q2 Q0 d1 2 1 r"])
    result = _trec_eval("-q", "-m", "ndcg.2=5", "-m", "ndcg_cut.1", qrels, run)
    assert result.exit_code == 0, result.output
    values = _values(result.stdout)
    assert values[("ndcg_2=5", "q2")] == round((1 + 5 / math.log2(3)) / (5 + 1 / math.log2(3)), 4)
    # the other measures keep the levels as gains
    assert values[("ndcg_cut_1", "q2")] == 0.5


def test_notes_say_what_trec_eval_leaves_out(tmp_path: Path) -> None:
    qrels = _write(tmp_path, "qrels", ["q1 0 a 1", "q2 0 b 1", "q3 0 c -1", "q3 0 d 0"])
    run = _write(tmp_path, "run", ["q1 Q0 a 1 3 r", "q1 Q0 x 2 2 r", "q1 Q0 y 3 1 r", "q9 Q0 a 1 1 r",
                                   "q3 Q0 c 1 1 r"])
    result = _trec_eval("-m", "map", "-m", "num_q", "-M", "2", qrels, run)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "note: 1 qrels line(s) have a negative relevance (trec_eval: a document of the pool left unjudged); every "
        "measure computed here reads them as unjudged documents, as trec_eval does, but infAP, whose estimate counts "
        "them in the pool.",
        "note: -M 2: 1 document(s) ranked past 2 in 1 query are not read (trec_eval drops them too, without a word).",
        "note: 1 of the run's 3 queries have no judgment in the qrels and are not evaluated, as trec_eval does (q9).",
        "note: 1 of the qrels' 3 queries have no document in the run and are left out of the means (q2); -c counts "
        "them, each measure 0. (trec_eval 10.0 stops on such a query without -c; trec_eval 9 left it out.)",
    ]
    assert result.stdout == "num_q                 \tall\t2\nmap                   \tall\t0.5000\n"
    complete = _trec_eval("-c", "-m", "map", "-m", "num_q", qrels, run)
    assert complete.stdout == "num_q                 \tall\t3\nmap                   \tall\t0.3333\n"


@pytest.mark.parametrize(("qrels_lines", "run_lines", "message"), [
    (["q1 0 d1 1", "q1 0 d1 0"], ["q1 Q0 d1 1 1.0 r"],
     "the qrels judge 1 document(s) twice for one query (for example 'd1' of query 'q1'); trec_eval refuses them "
     "too: keep one judgment per document of a query."),
    (["q1 0 d1 1"], ["q1 Q0 d1 1 1.0 r", "q1 Q0 d1 2 0.5 r"],
     "the run retrieves 1 document(s) twice for one query (for example 'd1' of query 'q1'); trec_eval refuses them "
     "too: keep one line per document of a query."),
])
def test_a_document_twice_in_a_query_is_refused_in_the_files_words(tmp_path: Path, qrels_lines: list[str],
                                                                    run_lines: list[str], message: str) -> None:
    result = _trec_eval("-m", "map", _write(tmp_path, "qrels", qrels_lines), _write(tmp_path, "run", run_lines))
    assert result.exit_code == 1
    assert result.output == f"Error: rankwise trec_eval: {message}\n"


def test_the_run_read_from_stdin() -> None:
    result = CliRunner().invoke(main, ["trec_eval", "-m", "map", "-m", "runid", str(FIXTURES / "qrels.test"), "-"],
                                input=(FIXTURES / "results.test").read_text())
    assert result.exit_code == 0, result.output
    assert result.stdout == "runid                 \tall\tSTANDARD\nmap                   \tall\t0.1785\n"


def test_no_summary() -> None:
    result = _trec_eval("-n", "-q", "-m", "map", str(FIXTURES / "qrels.test"), str(FIXTURES / "results.test"))
    expected = [line for line in (FIXTURES / "out.test.aq").read_text().splitlines()
                if line.startswith("map ") and "\tall\t" not in line]
    assert len(expected) == 3
    assert result.stdout.splitlines() == expected


def test_docs_hold_the_table_of_trec_eval_measures() -> None:
    assert mapping_table() in (REPO_ROOT / "docs" / "search.md").read_text()
