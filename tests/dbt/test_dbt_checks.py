"""dbt speaks rankwise: in a consumer's dbt project on DuckDB, a forgotten
column, a misspelt option and bad seeds give rankwise's messages, not the
engine's, and the package model logs the coverage warnings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

SEEDS = {
    # a model scored by `score`, with a date column and no `rank`
    "scored_recommendations": "model,user_id,item_id,score,rec_date\na,u1,i1,0.9,2026-01-01\na,u1,i2,0.5,2026-01-01\n"
                              "a,u2,i3,0.9,2026-01-01\nb,u1,i1,0.9,2026-01-01\n",
    "recommendations": "model,user_id,item_id,rank\na,u1,i1,1\na,u1,i2,2\na,u2,i3,1\na,u3,i9,1\nb,u1,i1,1\n",
    "interactions": "user_id,item_id,relevance\nu1,i1,1\nu2,i3,1\nu3,i4,1\n",
    "graded_interactions": "user_id,item_id,relevance\nu1,i1,high\nu2,i3,low\n",
    "duplicated_interactions": "user_id,item_id,relevance\nu1,i1,1\nu1,i1,1\nu2,i3,1\nu3,i4,1\n",
    # of 4 train users, 2 had i1, 1 had i2 and 1 had i3
    "train": "user_id,item_id\nt1,i1\nt2,i1\nt3,i3\nu1,i2\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("consumer")
    (root / "dbt_project.yml").write_text(
        "name: consumer\nversion: '1.0'\nprofile: consumer\nconfig-version: 2\n"
        "vars:\n  rankwise_metrics_history: false\n")
    (root / "profiles.yml").write_text(
        "consumer:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n"
        f"      path: {json.dumps(str(root / 'consumer.duckdb'))}\n      threads: 1\n")
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(REPO_ROOT))}\n")
    (root / "seeds").mkdir()
    for name, text in SEEDS.items():
        (root / "seeds" / f"{name}.csv").write_text(text)
    (root / "models").mkdir()
    (root / "models" / "text_relevance.sql").write_text(
        "{{ rankwise.evaluate(ref('recommendations'), ref('graded_interactions'), metrics=['ndcg@2'], relevance_col='relevance') }}\n")
    (root / "models" / "forgot_score_col.sql").write_text(
        "{{ rankwise.evaluate(ref('scored_recommendations'), ref('interactions'), metrics=['ndcg@2'], group_by='model') }}\n")
    for validate in ("true", "false"):
        (root / "models" / f"own_evaluation_validate_{validate}.sql").write_text(
            "{{ rankwise.evaluate(ref('recommendations'), ref('duplicated_interactions'), metrics=['map@2'], group_by='model', "
            f"relevance_col='relevance'{', validate=false' if validate == 'false' else ''}) }}}}\n")
        (root / "models" / f"own_comparison_validate_{validate}.sql").write_text(
            "{{ rankwise.compare(ref('recommendations'), ref('duplicated_interactions'), metrics=['map@2'], baseline='a', "
            f"relevance_col='relevance'{', validate=false' if validate == 'false' else ''}) }}}}\n")
    (root / "seeds" / "schema.yml").write_text(
        "version: 2\nseeds:\n  - name: duplicated_interactions\n    data_tests:\n"
        "      - rankwise.valid_interactions:\n          relevance_col: relevance\n")
    for command in (["deps", "--quiet"], ["seed"]):
        done = _dbt(root, *command)
        assert done.returncode == 0, done.stdout[-3000:]
    return root


def _dbt(project: Path, *arguments: str) -> subprocess.CompletedProcess:
    dbt = Path(sys.executable).with_name("dbt")
    env = {**os.environ, "DBT_PROFILES_DIR": str(project), "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    return subprocess.run([str(dbt), *arguments], cwd=project, env=env, capture_output=True, text=True, check=False)


def _package_models(project: Path, **variables) -> subprocess.CompletedProcess:
    return _dbt(project, "run", "--select", "rankwise", "--vars", json.dumps(variables))


def test_a_missing_column_is_named_with_rankwises_message(project: Path) -> None:
    done = _dbt(project, "run", "--select", "forgot_score_col")
    assert done.returncode != 0
    assert ("rankwise: column 'rank' (the rank) is not in the recommendations" in done.stdout
            and "Its columns: model, user_id, item_id, score, rec_date" in done.stdout), done.stdout[-3000:]
    assert "Binder Error" not in done.stdout


def test_a_text_relevance_is_named_with_rankwises_message(project: Path) -> None:
    done = _dbt(project, "run", "--select", "text_relevance")
    assert done.returncode != 0
    assert "rankwise: the relevance column 'relevance' of the interactions" in done.stdout, done.stdout[-3000:]
    assert "it must be numeric" in done.stdout


def test_a_misspelt_argument_gets_a_suggestion(project: Path) -> None:
    """Refused when dbt parses the project (which writes no query, README.md's
    "dbt"), so the model exists for this test only."""
    model = project / "models" / "misspelt_option.sql"
    model.write_text(
        "{{ rankwise.evaluate(ref('recommendations'), ref('interactions'), metrics=['ndcg@2'], gian='exponential') }}\n")
    try:
        done = _dbt(project, "parse")
    finally:
        model.unlink()
    assert done.returncode != 0
    assert "rankwise.evaluate: unknown argument `gian`. Did you mean `gain`?" in done.stdout, done.stdout[-3000:]


def test_a_misspelt_package_option_gets_a_suggestion(project: Path) -> None:
    done = _package_models(project, rankwise_recommendations="recommendations", rankwise_interactions="interactions",
                           rankwise_options={"gian": "exponential"})
    assert done.returncode != 0
    assert "unknown argument `gian`. Did you mean `gain`?" in done.stdout, done.stdout[-3000:]


def test_the_package_models_refuse_bad_input_unless_told_not_to(project: Path) -> None:
    bad = dict(rankwise_recommendations="recommendations", rankwise_interactions="duplicated_interactions",
               rankwise_group_by=["model"], rankwise_options={"relevance_col": "relevance"})
    done = _package_models(project, **bad)
    assert done.returncode != 0
    assert "rows of the interactions" in done.stdout and "(user, item) pairs listed twice in column 'item_id'" in done.stdout
    assert "rankwise_validate: false" in done.stdout
    done = _package_models(project, **bad, rankwise_validate=False)
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_package_model_logs_the_coverage_warnings(project: Path) -> None:
    done = _package_models(project, rankwise_recommendations="recommendations", rankwise_interactions="interactions",
                           rankwise_group_by=["model"], rankwise_metrics=["ndcg@2", "entropy@2"],
                           rankwise_options={"relevance_col": "relevance"})
    assert done.returncode == 0, done.stdout[-3000:]
    assert "Warning: rankwise: model b has lists for 1 of the 3 users with ground truth" in done.stdout
    assert "model a has lists" not in done.stdout


def test_the_comparison_model_builds_and_names_a_misspelt_argument(project: Path) -> None:
    inputs = dict(rankwise_recommendations="recommendations", rankwise_interactions="interactions",
                  rankwise_metrics=["ndcg@2", "entropy@2"], rankwise_options={"relevance_col": "relevance"})
    done = _package_models(project, **inputs, rankwise_comparison={"baselin": "a"})
    assert done.returncode != 0
    assert "rankwise.compare: unknown argument `baselin`. Did you mean `baseline`?" in done.stdout, done.stdout[-3000:]
    done = _dbt(project, "build", "--select", "rankwise_comparison", "--vars",
                json.dumps({**inputs, "rankwise_comparison": {"baseline": "a"}}))
    assert done.returncode == 0, done.stdout[-3000:]
    with duckdb.connect(str(project / "consumer.duckdb"), read_only=True) as con:
        rows = con.sql("select metric_label, model, baseline, n_users from rankwise_comparison").fetchall()
    # entropy has no paired difference: only ndcg@2, model b against a, over the 3 truth users
    assert rows == [("ndcg@2", "b", "a", 3)]


def test_the_comparison_model_pairs_the_list_level_metrics_with_rankwise_train(project: Path) -> None:
    """arp@2 of u1, the one user with a list under both models: a's (i1, i2)
    0.375, b's (i1) 0.5."""
    inputs = dict(rankwise_recommendations="recommendations", rankwise_interactions="interactions",
                  rankwise_train="train", rankwise_metrics=["ndcg@2", "arp@2", "entropy@2"],
                  rankwise_options={"relevance_col": "relevance"}, rankwise_comparison={"baseline": "a"})
    done = _dbt(project, "build", "--select", "rankwise_comparison", "--vars", json.dumps(inputs))
    assert done.returncode == 0, done.stdout[-3000:]
    with duckdb.connect(str(project / "consumer.duckdb"), read_only=True) as con:
        rows = con.sql("select metric_label, model, baseline, n_users, mean, baseline_mean from rankwise_comparison "
                       "order by metric_label").fetchall()
    assert [row[:4] for row in rows] == [("arp@2", "b", "a", 1), ("ndcg@2", "b", "a", 3)]
    assert rows[0][4:] == (0.5, 0.375)



@pytest.mark.parametrize("macro", ["evaluation", "comparison"])
def test_a_users_own_model_refuses_bad_input_unless_told_not_to(project: Path, macro: str) -> None:
    """rankwise.evaluate and rankwise.compare in a model of the user's check
    their inputs when it runs, as the package models do; validate=false skips it."""
    done = _dbt(project, "run", "--select", f"own_{macro}_validate_true")
    assert done.returncode != 0
    message = (f"rankwise: 2 rows of the interactions ({_relation(project, 'duplicated_interactions')}) have (user, item) pairs "
               "listed twice in column 'item_id' (for example u1 / i1): keep one row per (user, item), or pass "
               "duplicate_interactions='max' to keep the highest relevance. (rankwise."
               f"{'evaluate' if macro == 'evaluation' else 'compare'} checks its inputs before the model builds; "
               "pass validate=false to skip it for inputs known to be clean.)")
    assert message in " ".join(done.stdout.split()), done.stdout[-3000:]
    done = _dbt(project, "run", "--select", f"own_{macro}_validate_false")
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_generic_test_stores_rows_that_say_what_is_wrong(project: Path) -> None:
    done = _dbt(project, "test", "--select", "duplicated_interactions", "--store-failures")
    assert done.returncode != 0
    with duckdb.connect(str(project / "consumer.duckdb"), read_only=True) as con:
        tables = [name for (name,) in con.sql("select table_schema || '.' || table_name from information_schema.tables "
                                               "where table_name like 'rankwise_valid_interactions%'").fetchall()]
        assert len(tables) == 1, tables
        rows = con.sql(f"select problem, column_name, n_rows, example, message from {tables[0]}").fetchall()
    assert rows == [("duplicate_interaction", "item_id", 2, "u1 / i1",
                     f"rankwise: 2 rows of the interactions ({_relation(project, 'duplicated_interactions')}) have (user, item) "
                     "pairs listed twice in column 'item_id' (for example u1 / i1): keep one row per (user, item), or pass "
                     "duplicate_interactions='max' to keep the highest relevance.")]


def test_a_misspelt_metric_gets_a_suggestion(project: Path) -> None:
    model = project / "models" / "misspelt_metric.sql"
    model.write_text("{{ rankwise.evaluate(ref('recommendations'), ref('interactions'), metrics=['ndgc@2']) }}\n")
    try:
        done = _dbt(project, "parse")
    finally:
        model.unlink()
    assert done.returncode != 0
    assert "rankwise.evaluate: unknown metric 'ndgc@2'. Did you mean 'ndcg'?" in done.stdout, done.stdout[-3000:]


def _relation(project: Path, seed: str) -> str:
    """A seed's relation as dbt renders it in this project (database.schema.name)."""
    return f'"consumer"."main"."{seed}"'
