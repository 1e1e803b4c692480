"""README.md's example outputs, read and rewritten for the tests that run the
calls README shows (tests/unit/test_readme_examples.py, and
tests/dbt/test_demo_output.py for what needs dbt).

README marks them with HTML comments, which GitHub does not show:

- `<!-- example: NAME -->` before the code block of a call;
- `<!-- output of NAME: ... -->` before what it prints: a fenced block, or a
  Markdown table. A command line's block holds the command (`$ rankwise ...`,
  continued by a trailing backslash) and then its output.

A test renders each output from the real call and compares it with README's;
run with `--rewrite-readme`, it writes the new output into README instead."""

from __future__ import annotations

import fcntl
import re
import shlex
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"

# The outputs each test file renders: every marked output is one of them.
UNIT_OUTPUTS = {"python-evaluate", "python-beyond-accuracy", "python-rag", "cli-evaluate", "cli-compare",
                "cli-trec-eval", "cli-explain"}
DBT_OUTPUTS = {"dbt-model", "demo-verdict"}

_EXAMPLE = re.compile(r"<!-- example: (?P<name>[\w-]+) -->\n```\w*\n(?P<body>.*?)```\n", re.S)
_OUTPUT = re.compile(r"<!-- output of (?P<name>[\w-]+):[^>]*-->\n"
                     r"(?:```\n(?P<fenced>.*?)```\n|(?P<table>(?:\|[^\n]*\n)+))", re.S)
_FENCED = re.compile(r"```(?P<language>\w*)\n(?P<body>.*?)```\n", re.S)


def _text() -> str:
    return README.read_text(encoding="utf-8")


def example(name: str) -> str:
    """The code of the block marked `<!-- example: name -->`."""
    found = [match["body"] for match in _EXAMPLE.finditer(_text()) if match["name"] == name]
    assert len(found) == 1, f"README.md marks {len(found)} examples {name!r}"
    return found[0]


def output(name: str) -> str:
    """The text of the output marked `<!-- output of name: ... -->`."""
    found = [match["fenced"] if match["fenced"] is not None else match["table"]
             for match in _OUTPUT.finditer(_text()) if match["name"] == name]
    assert len(found) == 1, f"README.md marks {len(found)} outputs {name!r}"
    return found[0]


def output_names() -> list[str]:
    return [match["name"] for match in _OUTPUT.finditer(_text())]


def command(name: str) -> tuple[str, list[str]]:
    """A command line's block: the lines of its command, as README writes
    them, and the command's arguments after `$`."""
    lines = output(name).splitlines(keepends=True)
    assert lines and lines[0].startswith("$ "), f"README.md's {name!r} does not start with a `$` command"
    taken = [lines[0]]
    while taken[-1].rstrip("\n").endswith("\\"):
        taken.append(lines[len(taken)])
    words = shlex.split("".join(line.rstrip("\n").removesuffix("\\") for line in taken).removeprefix("$ "))
    return "".join(taken), words


def unmarked_outputs() -> list[str]:
    """The fenced blocks that show an output without a mark: the block next
    to a Python block that prints (text may come between), or a block whose
    `$` command is followed by lines of output."""
    text = _text()
    marked = {match.start("fenced") for match in _OUTPUT.finditer(text) if match["fenced"] is not None}
    found = []
    previous = None
    for match in _FENCED.finditer(text):
        body, language = match["body"], match["language"]
        printed = (previous is not None and previous["language"] == "python" and "print(" in previous["body"]
                   and language == "" and not body.startswith("$ "))
        lines = body.splitlines()
        shown = any(line and not line.startswith("$ ") and not lines[position - 1].endswith("\\")
                    for position, line in enumerate(lines) if position and lines[0].startswith("$ "))
        if (printed or (language == "" and shown)) and match.start("body") not in marked:
            found.append(body.splitlines()[0] if body else "(empty block)")
        previous = match
    return found


def check(name: str, rendered: str, rewrite: bool) -> None:
    """README's output `name` is `rendered`; with `rewrite`, it becomes it."""
    if rewrite:
        _rewrite(name, rendered)
        return
    shown = output(name)
    assert shown == rendered, (
        f"README.md's output {name!r} is not what the call prints; run the test with --rewrite-readme to write it.\n"
        f"README.md:\n{shown}\nthe call:\n{rendered}")


def _rewrite(name: str, rendered: str) -> None:
    # The unit and dbt tests may rewrite README at once, on two workers.
    with README.open("r+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        text = handle.read()
        matches = [match for match in _OUTPUT.finditer(text) if match["name"] == name]
        assert len(matches) == 1, f"README.md marks {len(matches)} outputs {name!r}"
        group = "fenced" if matches[0]["fenced"] is not None else "table"
        text = text[:matches[0].start(group)] + rendered + text[matches[0].end(group):]
        handle.seek(0)
        handle.truncate()
        handle.write(text)
