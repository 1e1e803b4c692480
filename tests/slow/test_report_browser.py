"""The HTML report in a real browser: headless Chromium opens it with the
network cut off, no console message or error, every chart drawn, no table
wider than its box nor the page wider than a window 1280 px wide, and a
screenshot that is not blank. `make test` installs Chromium when missing."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import rankwise

from tests.unit.report_pages import HOSTILE, K, METRICS, sample_inputs

# The marks each chart draws: plotly's SVG root and the layer of its traces.
MARKS = {
    "curves": 'class="trace scatter',
    "tradeoff": 'class="trace scatter',
    "distributions": 'class="trace boxes',
    "heatmap": 'class="hm"',
    "partitions": 'class="trace scatter',
}


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "headless Chromium is needed: `make test` installs it (apt-get install -y chromium)"
    return found


def _open(page: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Chromium headless on the file, with every host name unresolvable (the
    report must need no network), logging the page's console to stderr."""
    return subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=20000", *arguments, page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True)


def _problems(page: Path) -> tuple[list[str], str]:
    """The console messages and recorded errors of the page, and its DOM, in a
    window 1280 px wide."""
    opened = _open(page, "--dump-dom", "--window-size=1280,2400")
    console = [line for line in opened.stderr.splitlines() if ":CONSOLE" in line]
    recorded = re.findall(r'<html[^>]*data-errors="([^"]*)"', opened.stdout)
    return console + recorded, opened.stdout


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    """A report with every chart and every table: two group columns (a
    heatmap), a partition column, confidence intervals (bands and error bars),
    an accuracy and a group-level metric (the trade-off), a comparison with a
    baseline at a margin (the verdict, ranx's table, wins / ties / losses),
    gates, more metric labels than fit one table's width, and a series name
    made of HTML."""
    recommendations, interactions = sample_inputs()
    arguments = {"group_by": ["model", "segment"], "partition_by": "day", "relevance_col": "relevance"}
    result = rankwise.evaluate(recommendations, interactions, METRICS, K, **arguments)
    result = result.assign(ci_low=result["value"] * 0.9, ci_high=result["value"] * 1.1)
    per_user = rankwise.evaluate(recommendations, interactions, METRICS[:-1], K, per_user=True, **arguments)
    notes = rankwise.check(recommendations, interactions, k=K, **arguments)
    comparison = rankwise.compare(recommendations, interactions, METRICS[:-1], K, model_col="model", baseline="pop",
                                  group_by="segment", partition_by="day", relevance_col="relevance", margin=0.05)
    return rankwise.report(result=result, per_user=per_user, notes=notes, comparison=comparison, margin=0.05,
                           at_least={"ndcg@3": 0.3}, partition_by="day",
                           path=tmp_path_factory.mktemp("browser") / "report.html", title="Browser test")


def _overflows(dom: str) -> tuple[list[int], int]:
    """How many pixels each table is wider than its box, and the page than the
    window, as the page measured them once drawn."""
    tables = [int(width) for width in re.findall(r'<table[^>]*data-overflow="(\d+)"', dom)]
    page = re.search(r'<html[^>]*data-page-overflow="(\d+)"', dom)
    assert page is not None and tables, "the page did not measure its tables"
    return tables, int(page.group(1))


def test_the_report_draws_every_chart_without_an_error(page: Path) -> None:
    problems, dom = _problems(page)
    assert problems == []
    assert "<title>Browser test</title>" in dom  # the hostile name did not run
    charts = re.split(r'(?=<div class="chart[ "])', dom)[1:]
    assert [re.search(r'data-chart="(\w+)"', chart).group(1) for chart in charts] == list(MARKS)
    for chart in charts:
        name = re.search(r'data-chart="(\w+)"', chart).group(1)
        assert 'data-rendered="true"' in chart.split(">", 1)[0], name
        assert 'class="main-svg"' in chart and MARKS[name] in chart, name
    # One line per series in each subplot of the curves, and its band.
    assert charts[0].count('class="trace scatter') == 2 * 6 * len(METRICS)
    # Error bars: on the trade-off's points (accuracy) and on the boxes' means.
    assert 'class="errorbar"' in charts[1] and 'class="errorbar"' in charts[2]
    assert HOSTILE.replace("<", "&lt;").replace(">", "&gt;") in dom


def test_every_table_fits_a_page_1280_px_wide(page: Path) -> None:
    _, dom = _problems(page)
    tables, overflow = _overflows(dom)
    # the verdict, the gates, the summary, ranx's table, the records (each in
    # parts) and the notes
    assert len(tables) >= 9 and tables == [0] * len(tables) and overflow == 0
    for grid in ("verdict", "gates", "summary", "comparison", "records"):
        assert f'id="{grid}-1"' in dom, grid
    assert 'id="summary-2"' in dom  # 12 metric labels: more than one part


def test_a_table_too_wide_is_caught(page: Path, tmp_path: Path) -> None:
    """The measure above can fail: a table forced wider than the page is
    reported, and so is the page."""
    wide = tmp_path / "wide.html"
    html = page.read_text(encoding="utf-8")
    wide.write_text(html.replace("</style>", "#summary-1 { width: 2000px !important; }</style>", 1), encoding="utf-8")
    tables, overflow = _overflows(_problems(wide)[1])
    assert max(tables) > 500 and overflow > 500


def test_a_failing_chart_is_caught(page: Path, tmp_path: Path) -> None:
    """The checks above can fail: a chart whose figure cannot be read is reported
    (in the console and in the page's data-errors)."""
    broken = tmp_path / "broken.html"
    html = page.read_text(encoding="utf-8")
    broken.write_text(re.sub(r'(<script type="application/json" id="chart-heatmap-figure">)[^<]*',
                             r'\1{"data": "not a list"', html, count=1), encoding="utf-8")
    problems, dom = _problems(broken)
    assert any("chart heatmap: SyntaxError" in problem for problem in problems)
    assert "data-errors=" in dom
    # The other charts are still drawn.
    assert dom.count('data-rendered="true"') == len(MARKS) - 1


def test_the_screenshot_is_not_blank(page: Path, tmp_path: Path) -> None:
    from PIL import Image, ImageStat

    shot = tmp_path / "report.png"
    _open(page, f"--screenshot={shot}", "--window-size=1280,2400")
    with Image.open(shot) as image:
        assert image.size == (1280, 2400)
        grey = image.convert("L")
        # A blank or single-colour page has no spread; the charts' lines,
        # fills and text give many grey levels.
        assert ImageStat.Stat(grey).stddev[0] > 20
        assert len(grey.getcolors(256)) > 100
        # The lower half holds charts too, not only the table.
        lower = grey.crop((0, 1200, 1280, 2400))
        assert ImageStat.Stat(lower).stddev[0] > 10
