"""Expected reciprocal rank as the TREC Web track's gdeval.pl computes it
(version 1.2a, as ir_measures 0.4.3 ships it in ir_measures/bin/gdeval.pl and
runs it for its ERR@k measure): the subroutine `err`, ported line for line.

gdeval.pl prints five decimals, too few for a check to 1e-9, so the tests run
this port; README.md beside this file records that it gave gdeval's numbers.
gdeval fixes the largest grade at $MAX_JUDGMENT = 4, where rankwise reads it
off the interactions: the port takes it as an argument.

Input as `err` reads it: the grades of the run's documents in rank order (0 for
a document not judged).
"""

from __future__ import annotations


def err(k: int, gains: list[float], max_judgment: float = 4) -> float:
    score, decay = 0.0, 1.0
    for i in range(min(k, len(gains))):
        r = (2 ** gains[i] - 1) / (2**max_judgment)
        score += r * decay / (i + 1)
        decay *= 1 - r
    return score
