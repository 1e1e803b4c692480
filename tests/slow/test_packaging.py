"""The wheel a team pins: built from the checkout, installed into a clean
virtual environment, where `rankwise evaluate` on the command line gives the
numbers rankwise gives here, from the macros shipped inside the wheel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pandas as pd
import pytest

import rankwise
from rankwise._render import _macro_sources

REPO_ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["version"]

SCRIPT = """
import json, sys
import pandas as pd
import rankwise, rankwise._render as render
recs = pd.DataFrame({"user_id": ["u", "u", "u"], "item_id": ["a", "b", "c"], "rank": [1, 2, 3]})
truth = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["b", "d"], "relevance": [2.0, 1.0]})
table = rankwise.evaluate(recs, truth, ["ndcg@3", "map"], relevance_col="relevance")
print(json.dumps({"module": rankwise.__file__, "macros": str(render.default_macro_root()),
                  "version": rankwise.__version__, "values": table["value"].tolist()}))
"""

# Put first on the command line's sys.path, this records every macro file the
# process opens (Python's audit hook sees each open()), so that the test knows
# which macros `rankwise evaluate` rendered, not only where they should be.
RECORD_MACRO_READS = """
import os, sys

def _record(event, args):
    if event == "open" and isinstance(args[0], (str, os.PathLike)) and os.fspath(args[0]).endswith(".sql"):
        with open(os.environ["RANKWISE_TEST_MACRO_READS"], "a") as log:
            log.write(os.path.realpath(args[0]) + "\\n")

sys.addaudithook(_record)
"""

METRICS = ["ndcg@3", "map", "precision@2", "mrr", "entropy@2"]

# The clean environment sees only what it installed: a PYTHONPATH set for the
# test run (pointing at a source tree) would hide the installed package.
CLEAN_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--wheel-dir", str(folder), str(REPO_ROOT)],
        check=True, capture_output=True, env=CLEAN_ENV,
    )
    (built,) = folder.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    environment = tmp_path_factory.mktemp("clean_venv")
    venv.create(environment, with_pip=True)
    subprocess.run(
        [str(environment / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         str(wheel)],
        check=True, capture_output=True, env=CLEAN_ENV,
    )
    return environment


def test_the_wheel_holds_the_macros_the_license_and_the_version(wheel: Path) -> None:
    assert wheel.name == f"rankwise-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        shipped = sorted(name.removeprefix("rankwise/macros/") for name in names if name.startswith("rankwise/macros/"))
        in_repo = sorted(p.relative_to(REPO_ROOT / "macros").as_posix()
                         for p in (REPO_ROOT / "macros").rglob("*") if p.is_file())
        assert shipped == in_repo
        for name in shipped:
            assert archive.read(f"rankwise/macros/{name}") == (REPO_ROOT / "macros" / name).read_bytes()
        assert "rankwise/py.typed" in names
        # the HTML report's template is package data
        assert "rankwise/_report/template.html" in names
        dist_info = f"rankwise-{VERSION}.dist-info"
        (license_file,) = [name for name in names if name.startswith(f"{dist_info}/licenses/")]
        assert archive.read(license_file) == (REPO_ROOT / "LICENSE").read_bytes()
        metadata = archive.read(f"{dist_info}/METADATA").decode()
        assert f"\nVersion: {VERSION}\n" in metadata
        assert "rankwise = rankwise.cli:main" in archive.read(f"{dist_info}/entry_points.txt").decode()


def test_import_runs_the_shipped_macros(installed: Path, tmp_path: Path) -> None:
    completed = subprocess.run(
        [str(installed / "bin" / "python"), "-c", SCRIPT], cwd=tmp_path, check=True, capture_output=True, text=True,
        env=CLEAN_ENV,
    )
    report = json.loads(completed.stdout)
    site_packages = str(installed / "lib")
    assert report["module"].startswith(site_packages)
    assert report["macros"].startswith(site_packages)
    assert report["version"] == VERSION
    recs = pd.DataFrame({"user_id": ["u", "u", "u"], "item_id": ["a", "b", "c"], "rank": [1, 2, 3]})
    truth = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["b", "d"], "relevance": [2.0, 1.0]})
    here = rankwise.evaluate(recs, truth, ["ndcg@3", "map"], relevance_col="relevance")["value"].tolist()
    assert report["values"] == here


def test_rankwise_evaluate_runs_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    pd.DataFrame({
        "user_id": ["u1", "u1", "u1", "u2", "u2", "u2", "u3", "u3", "u4", "u4", "u4"],
        "item_id": ["a", "b", "c", "b", "d", "a", "e", "a", "c", "d", "f"],
        "rank": [1, 2, 3, 1, 2, 3, 1, 2, 1, 2, 3],
    }).to_csv(tmp_path / "recommendations.csv", index=False)
    pd.DataFrame({
        "user_id": ["u1", "u1", "u2", "u3", "u3", "u4", "u5"],
        "item_id": ["b", "d", "a", "e", "f", "f", "a"],
        "relevance": [2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 1.0],
    }).to_csv(tmp_path / "interactions.csv", index=False)
    recorder = tmp_path / "recorder"
    recorder.mkdir()
    (recorder / "sitecustomize.py").write_text(RECORD_MACRO_READS)
    reads = tmp_path / "macro_reads.txt"
    metric_flags = [flag for metric in METRICS for flag in ("-m", metric)]

    completed = subprocess.run(
        [str(installed / "bin" / "rankwise"), "evaluate", "recommendations.csv", "interactions.csv", *metric_flags,
         "--relevance-col", "relevance", "-o", "metrics.json"],
        cwd=tmp_path, capture_output=True, text=True,
        env={**CLEAN_ENV, "PYTHONPATH": str(recorder), "RANKWISE_TEST_MACRO_READS": str(reads)},
    )
    assert completed.returncode == 0, completed.stderr
    from_the_wheel = json.loads((tmp_path / "metrics.json").read_text())

    relation = rankwise.evaluate(str(tmp_path / "recommendations.csv"), str(tmp_path / "interactions.csv"), METRICS,
                                 relevance_col="relevance", output="relation")
    here = [dict(zip(relation.columns, row)) for row in relation.fetchall()]
    assert len(here) == len(METRICS) and len(from_the_wheel) == len(here)
    assert [row["metric_label"] for row in from_the_wheel] == [row["metric_label"] for row in here]
    for wheel_row, row in zip(from_the_wheel, here, strict=True):
        assert wheel_row.keys() == row.keys()
        for column, value in row.items():
            if isinstance(value, float):
                # the same SQL, maybe a newer DuckDB release in the clean environment
                assert wheel_row[column] == pytest.approx(value, rel=1e-12, abs=1e-15), (row["metric_label"], column)
            else:
                assert wheel_row[column] == value, (row["metric_label"], column)

    # every macro the renderer loads (those of dbt alone left out), each from
    # the installed package and none from the checkout
    (installed_macros,) = (installed / "lib").glob("python3*/site-packages/rankwise/macros")
    rendered_here = [path.relative_to(REPO_ROOT / "macros") for path in _macro_sources(REPO_ROOT / "macros")]
    assert rendered_here, "the renderer loads no macro"
    assert set(reads.read_text().split()) == {str((installed_macros / path).resolve()) for path in rendered_here}
