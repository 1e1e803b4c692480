"""The documentation site (mkdocs.yml over docs/) builds with --strict, its
reference of metrics and options is generated from the registries when it is
built, and a broken link, a missing anchor or a page left out of the nav fails
the build."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

import rankwise
from rankwise._options import options_table
from rankwise._render import renderer

REPO_ROOT = Path(__file__).resolve().parents[2]
# Material prints a notice about MkDocs 2.0 on every build, on stderr.
BUILD_ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(site)],
        capture_output=True, text=True, env=BUILD_ENV, cwd=config.parent,
    )


class Tables(HTMLParser):
    """The text of every table cell, as tables of rows, each row a list of
    (cell text, link target or None)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[tuple[str, str | None]]]] = []
        self.cell: list[str] | None = None
        self.link: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell, self.link = [], None
        elif tag == "a" and self.cell is not None:
            self.link = dict(attrs).get("href")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append(("".join(self.cell).strip(), self.link))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables_of(page: Path) -> list[list[list[tuple[str, str | None]]]]:
    parser = Tables()
    parser.feed(page.read_text())
    return parser.tables


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("site")
    completed = build(REPO_ROOT / "mkdocs.yml", site)
    assert completed.returncode == 0, completed.stderr
    return site


def test_the_metric_reference_is_every_metric_of_the_registry(site: Path) -> None:
    metric_rows = tables_of(site / "reference" / "index.html")[0]
    assert [text for text, _ in metric_rows[0]] == ["metric", "level", "@k", "parameters", "optional tables it reads"]
    registry = renderer().call("_metric_registry")
    assert [row[0][0] for row in metric_rows[1:]] == rankwise.metric_names() == list(registry)
    metrics_page = (site / "metrics" / "index.html").read_text()
    for (name, link), (level, _), (cutoff, _), (parameters, _), _ in metric_rows[1:]:
        assert level == registry[name]["level"]
        assert cutoff == {True: "yes", "optional": "optional", False: "no"}[registry[name]["cutoff"]]
        declared = list(renderer().call("_metric_parameter_declarations", name))
        assert parameters == (", ".join(declared) or "none")
        # each name links to its section of the metrics page
        assert link is not None and link.startswith("../metrics/#")
        assert f'id="{link.removeprefix("../metrics/#")}"' in metrics_page
    assert [row[0][0] for row in metric_rows[1:] if "rel" in row[3][0]] == [
        name for name in registry if registry[name]["level"] == "user" and not registry[name].get("graded")
    ]


def test_the_option_tables_are_every_option_of_the_registry(site: Path) -> None:
    registry = renderer().call("_option_registry")
    reference_options = tables_of(site / "reference" / "index.html")[-1]
    metrics_page_options = next(
        table for table in tables_of(site / "metrics" / "index.html") if table[0][0][0] == "option"
    )
    for table in (reference_options, metrics_page_options):
        assert [text for text, _ in table[0]] == ["option", "values", "default", "what it decides"]
        assert [row[0][0] for row in table[1:]] == list(registry)
        for (name, _), (values, _), _, (help_text, _) in table[1:]:
            # the help as markdown renders it: code spans without their backticks
            assert help_text == registry[name]["help"].replace("`", "").replace("|", "/")
            for choice in registry[name].get("choices", []):
                assert choice in values


def test_the_hook_writes_the_option_table_of_metrics_md_from_the_registry() -> None:
    spec = importlib.util.spec_from_file_location("registry_reference", REPO_ROOT / "docs" / "hooks" / "registry_reference.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)

    class Page:
        class file:
            src_uri = "metrics.md"

    stale = "before\n<!-- options: begin -->\n| option |\n| `gone` |\n<!-- options: end -->\nafter\n"
    written = hook.on_page_markdown(stale, Page, {}, None)
    assert written == f"before\n<!-- options: begin -->\n{options_table()}\n<!-- options: end -->\nafter\n"
    with pytest.raises(PluginError, match="must hold one block"):
        hook.on_page_markdown("no block here", Page, {}, None)


def test_a_broken_link_a_missing_anchor_and_a_page_out_of_the_nav_fail_the_build(tmp_path: Path) -> None:
    shutil.copy(REPO_ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(REPO_ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    page = tmp_path / "docs" / "bi.md"
    page.write_text(page.read_text() + "\nSee [a page](no-such-page.md) and [a section](metrics.md#no-such-section).\n")
    (tmp_path / "docs" / "orphan.md").write_text("# Not in the nav\n")
    completed = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert completed.returncode != 0
    assert "'no-such-page.md'" in completed.stderr
    assert "'#no-such-section'" in completed.stderr
    assert "orphan.md" in completed.stderr
