"""The report tests' inputs, and reading a written report back: its summary
table, the figures of its charts and its script elements, with the standard
library's HTML parser."""

from __future__ import annotations

import html
import json
import random
import re
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
        # the tables of each grid (data-part-of), in order
        self.parts: dict[str, list[str]] = {}
        # the line under a row heading (a series' users), per table and row
        self.notes: dict[str, dict[int, str]] = {}
        # the class of each cell, per table and row
        self.classes: dict[str, list[list[str]]] = {}
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.charts: list[str] = []
        self.references: list[str] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._note: list[str] | None = None
        self._script: dict[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.references += [f"{tag} {name}={value}" for name, value in attrs if name in ("src", "href")]
        if tag == "table":
            self._table = attributes.get("id") or f"table{len(self.tables)}"
            self.tables[self._table] = []
            self.classes[self._table] = []
            self.notes[self._table] = {}
            if attributes.get("data-part-of"):
                self.parts.setdefault(str(attributes["data-part-of"]), []).append(self._table)
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
            self.classes[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
            self.classes[self._table][-1].append(attributes.get("class") or "")
        elif tag == "span" and self._cell is not None and "line" in (attributes.get("class") or "").split() \
                and not self.tables[self._table][-1]:
            self._note = []
        elif tag == "script":
            self._script, self._text = attributes, []
        elif tag == "div" and "data-chart" in attributes:
            self.charts.append(str(attributes["data-chart"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._note is not None:
            self.notes[self._table][len(self.tables[self._table]) - 1] = "".join(self._note).strip()
            self._note = None
        elif tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "script" and self._script is not None:
            self.scripts.append((self._script, "".join(self._text)))
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._note is not None:
            self._note.append(data)
        elif self._cell is not None:
            self._cell.append(data)
        if self._script is not None:
            self._text.append(data)


class Report:
    def __init__(self, path: Path) -> None:
        self.html = path.read_text(encoding="utf-8")
        page = _Page()
        page.feed(self.html)
        self.tables = page.tables
        self.parts = page.parts
        self.notes = page.notes
        self.classes = page.classes
        self.scripts = page.scripts
        self.charts = page.charts
        # Every src= and href= of an element (not inside a script's text).
        self.references = page.references
        self.figures: dict[str, dict[str, Any]] = {
            str(attributes["id"]).removeprefix("chart-").removesuffix("-figure"): json.loads(text)
            for attributes, text in page.scripts if attributes.get("type") == "application/json"
        }

    def columns(self, grid: str) -> list[str]:
        """The column headings of a grid (a table split into parts), in order,
        without the padding of its last part."""
        return [heading for table in self.parts[grid] for heading in self.tables[table][0][1:] if heading]

    def grid(self, grid: str, what: str = "text") -> dict[str, dict[str, str]]:
        """{row heading: {column heading: cell text}} of a grid, its parts
        joined; `what` = "class": each cell's class instead."""
        cells: dict[str, dict[str, str]] = {}
        for table in self.parts[grid]:
            header, *rows = self.tables[table]
            kept = [position for position, heading in enumerate(header) if position and heading]
            for row, classes in zip(rows, self.classes[table][1:]):
                values = classes if what == "class" else row
                cells.setdefault(row[0], {}).update({header[position]: values[position] for position in kept})
        return cells

    def row_notes(self, grid: str) -> dict[str, str]:
        """{row heading: the line under it} of a grid (the series' users)."""
        first = self.parts[grid][0]
        return {self.tables[first][position][0]: note for position, note in self.notes[first].items()}

    def decisions(self) -> dict[str, str]:
        """{model: the text of its decision} of the verdict."""
        items = re.findall(r'<li class="\w+" data-model="([^"]*)">(.*?)</li>', self.html, re.DOTALL)
        return {html.unescape(model): " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())
                for model, text in items}

    def summary(self) -> dict[str, dict[str, str]]:
        """{series: {metric label: cell text}} of the summary table."""
        return self.grid("summary")
