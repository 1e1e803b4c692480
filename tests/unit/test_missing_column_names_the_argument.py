"""A missing column's message says which argument names it: in Python the
argument (`rank_col`), on the command line its flag (`--rank-col`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise.cli import main
from rankwise.errors import MissingColumnError

RECOMMENDATIONS = pd.DataFrame({"user_id": [1], "item_id": ["a"], "position": [1], "score": [0.5]})
INTERACTIONS = pd.DataFrame({"user_id": [1], "item_id": ["a"], "grade": [2]})


@pytest.mark.parametrize(("options", "fix"), [
    ({}, "Name the right one with `rank_col`, or rank by a score with `score_col`."),
    ({"score_col": "points"}, "Name the right one with `score_col`."),
    ({"rank_col": "position", "relevance_col": "rating"}, "Name the right one with `relevance_col`."),
    ({"user_col": "uid"}, "Name the right one with `user_col`."),
])
def test_python_names_the_argument(options: dict, fix: str) -> None:
    with pytest.raises(MissingColumnError) as raised:
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["ndcg"], **options)
    assert str(raised.value).endswith(fix)


def test_the_command_line_names_the_flag(tmp_path: Path) -> None:
    RECOMMENDATIONS.to_csv(tmp_path / "recs.csv", index=False)
    INTERACTIONS.to_csv(tmp_path / "truth.csv", index=False)
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"), "-m", "ndcg"])
    assert result.exit_code == 1
    assert result.output.strip().endswith("Name the right one with `--rank-col`, or rank by a score with `--score-col`.")
