"""Run by hand, not in CI: in a venv with ir-measures 0.4.3 and pytest, and perl
on the PATH, from the repository root,

    python -m pytest tests/crosscheck/peers/verify_gdeval.py -p no:cacheprovider

The port gives the ERR@k of gdeval.pl, through ir_measures, to its five
printed decimals, on random runs with grades 0 to 4."""

from __future__ import annotations

import math
import random

import pytest

from . import gdeval as gdeval_port


@pytest.mark.parametrize("seed", range(60))
def test_the_gdeval_port_gives_gdevals_numbers(seed: int) -> None:
    import ir_measures
    from ir_measures import ERR

    draw = random.Random(seed)
    qrels, run, grades_of = [], [], {}
    for query in range(1, 6):
        documents = [f"d{index}" for index in range(draw.randint(1, 25))]
        grades = {document: draw.randint(0, 4) for document in documents if draw.random() < 0.6}
        if not grades:
            grades = {documents[0]: 0}
        qrels += [ir_measures.Qrel(str(query), document, grade) for document, grade in grades.items()]
        # distinct scores, so gdeval's order is the list's
        run += [ir_measures.ScoredDoc(str(query), document, float(len(documents) - position))
                for position, document in enumerate(documents)]
        grades_of[str(query)] = [grades.get(document, 0) for document in documents]
    k = draw.choice([1, 3, 5, 10, 20])
    calculated = list(ir_measures.iter_calc([ERR @ k], qrels, run))
    assert sorted(metric.query_id for metric in calculated) == sorted(grades_of)
    for metric in calculated:
        expected = gdeval_port.err(k, grades_of[metric.query_id])
        assert math.isclose(metric.value, expected, rel_tol=0, abs_tol=5e-6 + 1e-12), (seed, metric, expected)
