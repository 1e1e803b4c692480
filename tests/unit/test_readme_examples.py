"""README.md's Python and command-line examples run on the demo's sample data
(seeded: the same files `make demo` generates), each printing exactly the
output README shows under it; `--rewrite-readme` writes what they print into
README instead (tests/unit/readme_examples.py). A test also fails on an output
in README that no test renders."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise.cli import main

from . import readme_examples
from .readme_examples import DBT_OUTPUTS, UNIT_OUTPUTS

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory) -> Path:
    """A folder holding demo/seeds/ as `make demo` generates it, the examples'
    working directory."""
    folder = tmp_path_factory.mktemp("readme")
    specification = importlib.util.spec_from_file_location("generate_sample_data",
                                                           REPO_ROOT / "demo" / "generate_sample_data.py")
    generator = importlib.util.module_from_spec(specification)
    specification.loader.exec_module(generator)
    with contextlib.redirect_stdout(io.StringIO()):
        generator.main(folder / "demo" / "seeds")
    return folder


@pytest.fixture
def rewrite(request) -> bool:
    return request.config.getoption("--rewrite-readme")


@pytest.mark.parametrize("name", ["python-evaluate", "python-beyond-accuracy", "python-rag"])
def test_a_python_example_prints_what_readme_shows(name: str, demo_folder: Path, rewrite: bool,
                                                   monkeypatch) -> None:
    """Run as a reader runs it: in a session where rankwise is imported, and
    printed as an 80-column terminal shows a DataFrame (pandas hides the
    columns that do not fit behind `...`)."""
    monkeypatch.chdir(demo_folder)
    printed = io.StringIO()
    with pd.option_context("display.width", 80, "display.max_columns", 0), contextlib.redirect_stdout(printed):
        exec(compile(readme_examples.example(name), f"README.md ({name})", "exec"), {"rankwise": rankwise})
    assert printed.getvalue() and "..." not in printed.getvalue(), "the terminal would hide a column"
    readme_examples.check(name, printed.getvalue(), rewrite)


@pytest.mark.parametrize("name", ["cli-evaluate", "cli-compare", "cli-explain"])
def test_a_command_prints_what_readme_shows(name: str, demo_folder: Path, rewrite: bool, monkeypatch) -> None:
    monkeypatch.chdir(demo_folder)
    lines, words = readme_examples.command(name)
    assert words[0] == "rankwise"
    result = CliRunner().invoke(main, words[1:])
    assert result.exit_code == 0, result.output
    # nothing else is printed: no warning README would leave out
    assert result.stderr == ""
    readme_examples.check(name, lines + result.stdout, rewrite)


def test_the_trec_eval_command_prints_what_readme_shows(rewrite: bool, monkeypatch) -> None:
    """Run where trec_eval's own test files are, as a trec_eval user runs it."""
    monkeypatch.chdir(REPO_ROOT / "tests" / "fixtures" / "trec_eval")
    lines, words = readme_examples.command("cli-trec-eval")
    assert words[:2] == ["rankwise", "trec_eval"]
    result = CliRunner().invoke(main, words[1:])
    assert result.exit_code == 0, result.output
    readme_examples.check("cli-trec-eval", lines + result.stdout, rewrite)


def test_readme_holds_the_table_of_aliases() -> None:
    from rankwise._aliases import aliases_table

    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Search and retrieval" in text
    assert aliases_table() in text, "regenerate README's table of aliases with rankwise._aliases.aliases_table()"


def test_every_example_output_of_readme_is_rendered_by_a_test() -> None:
    assert sorted(readme_examples.output_names()) == sorted(UNIT_OUTPUTS | DBT_OUTPUTS)
    assert readme_examples.unmarked_outputs() == []
