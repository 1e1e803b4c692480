"""dbt renders the descriptions of macros/schema.yml as Jinja at parse time, so a
description must hold no Jinja: an example written with braces would run (or
break dbt parse, as `rankwise` is undefined there)."""

from __future__ import annotations

from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_no_description_holds_jinja():
    paths = [*sorted((REPO_ROOT / "macros").rglob("*.yml")), *sorted((REPO_ROOT / "models").glob("*.yml"))]
    assert REPO_ROOT / "macros" / "schema.yml" in paths
    for path in paths:
        text = path.read_text()
        yaml.safe_load(text)
        for marker in ("{{", "{%", "{#"):
            assert marker not in text, f"{path.name} holds {marker}"
