"""`pip install .` into a clean virtual environment gives a working package and CLI,
with the macros shipped inside it."""

from __future__ import annotations

import json
import os
import subprocess
import venv
from pathlib import Path

import pandas as pd
import pytest

import rankwise

REPO_ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
import pandas as pd
import rankwise, rankwise._render as render
recs = pd.DataFrame({"user_id": ["u", "u", "u"], "item_id": ["a", "b", "c"], "rank": [1, 2, 3]})
truth = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["b", "d"], "relevance": [2.0, 1.0]})
table = rankwise.evaluate(recs, truth, ["ndcg@3", "map"], relevance_col="relevance")
print(json.dumps({"module": rankwise.__file__, "macros": str(render.default_macro_root()),
                  "values": table["value"].tolist()}))
"""

# The clean environment sees only what it installed: a PYTHONPATH set for the
# test run (pointing at a source tree) would hide the installed package.
CLEAN_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    environment = tmp_path_factory.mktemp("clean_venv")
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(REPO_ROOT)],
        check=True,
        capture_output=True,
        env=CLEAN_ENV,
    )
    return environment


def test_import_runs_the_shipped_macros(installed: Path, tmp_path: Path) -> None:
    completed = subprocess.run(
        [str(installed / "bin" / "python"), "-c", SCRIPT], cwd=tmp_path, check=True, capture_output=True, text=True,
        env=CLEAN_ENV,
    )
    report = json.loads(completed.stdout)
    site_packages = str(installed / "lib")
    assert report["module"].startswith(site_packages)
    assert report["macros"].startswith(site_packages)
    shipped = sorted(p.relative_to(report["macros"]).as_posix() for p in Path(report["macros"]).rglob("*.sql"))
    in_repo = sorted(p.relative_to(REPO_ROOT / "macros").as_posix() for p in (REPO_ROOT / "macros").rglob("*.sql"))
    assert shipped == in_repo
    assert (Path(report["module"]).parent / "py.typed").exists()
    # The HTML report's template is package data.
    assert (Path(report["module"]).parent / "_report" / "template.html").exists()
    recs = pd.DataFrame({"user_id": ["u", "u", "u"], "item_id": ["a", "b", "c"], "rank": [1, 2, 3]})
    truth = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["b", "d"], "relevance": [2.0, 1.0]})
    here = rankwise.evaluate(recs, truth, ["ndcg@3", "map"], relevance_col="relevance")["value"].tolist()
    assert report["values"] == here


def test_the_cli_is_installed(installed: Path, tmp_path: Path) -> None:
    pd.DataFrame({"user_id": ["u", "u"], "item_id": ["a", "b"], "rank": [1, 2]}).to_csv(tmp_path / "r.csv", index=False)
    pd.DataFrame({"user_id": ["u"], "item_id": ["b"]}).to_csv(tmp_path / "t.csv", index=False)
    completed = subprocess.run(
        [str(installed / "bin" / "rankwise"), "evaluate", "r.csv", "t.csv", "-m", "mrr", "-o", "out.json"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
        env=CLEAN_ENV,
    )
    assert "wrote 1 rows" in completed.stderr
    assert json.loads((tmp_path / "out.json").read_text()) == [
        # one user: no interval
        {"metric": "mrr", "k": None, "metric_label": "mrr", "value": 0.5, "n_users": 1, "n_users_without_list": 0,
         "ci_low": None, "ci_high": None}
    ]
