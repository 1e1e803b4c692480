"""The report tests' inputs, and reading a written report back: its summary
table, the figures of its charts and its script elements, with the standard
library's HTML parser."""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas as pd

METRICS = ["ndcg", "precision", "mrr", "entropy"]
K = [1, 3, 5]
# A series name that would end a <script> element if written into one as it is.
HOSTILE = "</script><script>document.title='x'</script>"
DAYS = ["2026-01-01", "2026-01-02"]


def sample_inputs() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Three models on two segments over two days, 30 users; each day's truth
    for 34 users (the days are partitions: each judged on its own truth)."""
    generator = random.Random(20261123)
    items = [f"item{i:02d}" for i in range(30)]
    recommendations, interactions = [], []
    for day in DAYS:
        for model in ("als", "pop", HOSTILE):
            for segment in ("app", "web"):
                for user in range(30):
                    for rank, item in enumerate(generator.sample(items, 6), start=1):
                        recommendations.append((model, segment, day, f"u{user:02d}", item, rank))
        interactions += [(day, f"u{user:02d}", item, float(generator.randint(1, 3)))
                         for user in range(34) for item in generator.sample(items, generator.randint(1, 6))]
    return (pd.DataFrame(recommendations, columns=["model", "segment", "day", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["day", "user_id", "item_id", "relevance"]))


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.charts: list[str] = []
        self.references: list[str] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._script: dict[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.references += [f"{tag} {name}={value}" for name, value in attrs if name in ("src", "href")]
        if tag == "table":
            self._table = attributes.get("id") or f"table{len(self.tables)}"
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
        elif tag == "script":
            self._script, self._text = attributes, []
        elif tag == "div" and "data-chart" in attributes:
            self.charts.append(str(attributes["data-chart"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "script" and self._script is not None:
            self.scripts.append((self._script, "".join(self._text)))
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._script is not None:
            self._text.append(data)


class Report:
    def __init__(self, path: Path) -> None:
        self.html = path.read_text(encoding="utf-8")
        page = _Page()
        page.feed(self.html)
        self.tables = page.tables
        self.scripts = page.scripts
        self.charts = page.charts
        # Every src= and href= of an element (not inside a script's text).
        self.references = page.references
        self.figures: dict[str, dict[str, Any]] = {
            str(attributes["id"]).removeprefix("chart-").removesuffix("-figure"): json.loads(text)
            for attributes, text in page.scripts if attributes.get("type") == "application/json"
        }

    def summary(self) -> dict[str, dict[str, str]]:
        """{series: {column: cell text}} of the summary table."""
        header, *rows = self.tables["summary"]
        return {row[0]: dict(zip(header[1:], row[1:])) for row in rows}
