"""MkDocs hook: the site's reference of every metric and every option, written
at build time from the macros' registries through rankwise itself.

`reference.md` is generated whole (it is not in the repository): a table of the
metric registry (`_metric_registry`, with the parameters a metric string may
give from `_metric_parameter_declarations`) and the option table of
`_option_registry`. The option table of docs/metrics.md, between its
`<!-- options: ... -->` markers, is written again from the registry too, so that
the site never shows a copy; tests/unit/test_option_registry.py keeps the copy
that GitHub shows equal to it. Each table comes from `options_table()` and the
registries, the generators the command line and the docstrings read, not from a
second description of them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markdown.extensions.toc import slugify
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

import rankwise
from rankwise._options import options_table
from rankwise._render import renderer

REFERENCE_PAGE = "reference.md"
METRICS_PAGE = "metrics.md"
OPTIONS_BLOCK = re.compile(r"(<!-- options: begin -->\n).*?(\n<!-- options: end -->)", re.S)
CUTOFFS = {True: "yes", "optional": "optional", False: "no"}
# The optional tables a metric may read; the other `reads` of the registry name
# stages of the query, not inputs.
OPTIONAL_INPUTS = ("items", "train")


def on_files(files: Files, config: Any) -> Files:
    metrics_page = Path(config["docs_dir"]) / METRICS_PAGE
    files.append(File.generated(config, REFERENCE_PAGE, content=reference_page(metrics_page.read_text())))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if page.file.src_uri != METRICS_PAGE:
        return markdown
    written, found = OPTIONS_BLOCK.subn(lambda block: block.group(1) + options_table() + block.group(2), markdown)
    if found != 1:
        raise PluginError(f"docs/{METRICS_PAGE} must hold one block between <!-- options: begin --> and "
                          f"<!-- options: end -->; found {found}.")
    return written


def reference_page(metrics_markdown: str) -> str:
    return "\n".join([
        "# Reference: metrics and options",
        "",
        "Generated when the site is built, from the macros' registries "
        "(`_metric_registry` in `macros/evaluate/metric_registry.sql`, `_option_registry` in "
        "`macros/conventions/convention_options.sql`), so it lists exactly what this version of "
        "rankwise accepts. The definitions, conventions and sources are in "
        f"[Metrics and conventions]({METRICS_PAGE}).",
        "",
        "## Metrics",
        "",
        "Every name `metrics` accepts (`rankwise.metric_names()`), in the registry's order. Its level "
        "says what is averaged: `user`, a value per user with ground truth, averaged over the users; "
        "`list`, a value per list, averaged over the lists; `group`, one value per group. Under @k, "
        "`yes`: a name without @k takes each cutoff of `k`; `optional`: without @k, the whole list. "
        "A metric string may carry parameters, as `rbp(p=0.95)@20`; the last column, the "
        "optional tables (`items`: the catalog, `train`: the training interactions) the metric "
        "reads.",
        "",
        metric_table(metrics_markdown),
        "",
        "### Parameters of the metric strings",
        "",
        "A parameter left out takes its default; `rel` left out takes the call's `relevance_threshold`.",
        "",
        parameter_table(),
        "",
        "## Options",
        "",
        "The options of `rankwise.evaluate` and `rankwise.compare`: keyword arguments in dbt and in "
        "Python, flags on the command line.",
        "",
        options_table(),
        "",
    ])


def metric_table(metrics_markdown: str) -> str:
    registry, names = metric_registry()
    anchors = metric_anchors(metrics_markdown, names)
    lines = ["| metric | level | @k | parameters | optional tables it reads |", "|---|---|---|---|---|"]
    for name in names:
        entry = registry[name]
        parameters = renderer().call("_metric_parameter_declarations", name)
        lines.append(
            f"| [`{name}`]({METRICS_PAGE}#{anchors[name]}) | {entry['level']} | {CUTOFFS[entry['cutoff']]} "
            f"| {', '.join(f'`{parameter}`' for parameter in parameters) or 'none'} | {inputs_cell(entry)} |"
        )
    return "\n".join(lines)


def parameter_table() -> str:
    """One row per parameter declaration, with the metrics that take it: `rel`
    is declared alike for every per-user metric that reads a threshold."""
    registry, names = metric_registry()
    takers: dict[tuple[str, str], list[str]] = {}
    declarations: dict[tuple[str, str], dict[str, Any]] = {}
    for name in names:
        for parameter, declared in renderer().call("_metric_parameter_declarations", name).items():
            key = (parameter, repr(sorted(declared.items())))
            takers.setdefault(key, []).append(name)
            declarations[key] = declared
    lines = ["| parameter | metrics | values | default | what it sets |", "|---|---|---|---|---|"]
    for key, metrics in takers.items():
        declared = declarations[key]
        lines.append(
            f"| `{key[0]}` | {', '.join(f'`{metric}`' for metric in metrics)} | {parameter_values(declared)} "
            f"| `{plain(declared['default'])}` | {declared['help'].replace('|', '/')} |"
        )
    return "\n".join(lines)


def metric_registry() -> tuple[dict[str, Any], list[str]]:
    registry = renderer().call("_metric_registry")
    names = rankwise.metric_names()
    if list(registry) != names:
        raise PluginError(f"rankwise.metric_names() {names} is not the registry's {list(registry)}")
    return registry, names


def metric_anchors(metrics_markdown: str, names: list[str]) -> dict[str, str]:
    """The anchor of each metric's section of metrics.md: the heading whose first
    word is the metric's name, as the toc extension slugifies it (the strict
    build checks that the anchor exists)."""
    headings = [match.group(1) for match in re.finditer(r"^#{2,4} (.+)$", metrics_markdown, re.M)]
    anchors = {}
    for name in names:
        heading = next((text for text in headings if text.split()[0].strip("`") == name), None)
        if heading is None:
            raise PluginError(f"docs/{METRICS_PAGE} has no section for the metric {name!r}: a heading that "
                              f"starts with its name.")
        anchors[name] = slugify(heading.replace("`", ""), "-")
    return anchors


def parameter_values(declared: dict[str, Any]) -> str:
    kind = declared["kind"]
    if kind == "choice":
        return "one of " + ", ".join(f"`{choice}`" for choice in declared["choices"])
    described = {"probability": "a number above 0 and below 1", "boolean": "`true` or `false`", "number": "a number",
                 "proportion": "a number from 0 to 1", "positive": "a number above 0"}
    if kind not in described:
        raise PluginError(f"a metric parameter of kind {kind!r}, which the reference does not describe")
    return described[kind]


def plain(value: Any) -> str:
    """A default as a metric string writes it: `true`, `none`, `0.8`."""
    return str(value).lower() if value is None or isinstance(value, bool) else str(value)


def inputs_cell(entry: dict[str, Any]) -> str:
    """The optional tables a metric reads, and those it reads instead under
    some option values (`reads_when`, whose first match wins)."""
    def inputs(reads: list[str]) -> str:
        return ", ".join(f"`{name}`" for name in OPTIONAL_INPUTS if name in reads) or "none"

    cell = inputs(entry.get("reads", []))
    for case in entry.get("reads_when", []):
        if inputs(case["reads"]) == inputs(entry.get("reads", [])):
            continue
        condition = " and ".join(
            f"`{option}` = " + " or ".join(f"`{value}`" for value in (values if isinstance(values, list) else [values]))
            for option, values in case["when"].items()
        )
        cell += f"; with {condition}: {inputs(case['reads'])}"
    return cell
