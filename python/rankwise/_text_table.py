"""A result table as the command line prints it: each column right-aligned
under its name, floats to six decimals.

Written here rather than by pandas' ``to_string`` because importing pandas
would be most of a cold ``rankwise evaluate``'s time, for a table of a few
rows. The look is pandas' (``index=False``); NULL prints as NULL.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

DECIMALS = 6


def text_table(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """The rows under their column names, one line each."""
    rows = list(rows)
    texts = [[name, *_column_text([row[i] for row in rows])] for i, name in enumerate(columns)]
    widths = [max(map(len, column)) for column in texts]
    return "\n".join(" ".join(text.rjust(width) for text, width in zip(line, widths)) for line in zip(*texts))


def frame_text(frame: Any) -> str:
    """A pandas DataFrame printed as the result tables are, its missing values NULL."""
    rows = frame.astype(object).where(frame.notna(), None).itertuples(index=False, name=None)
    return text_table([str(column) for column in frame.columns], rows)


def _column_text(values: Sequence[Any]) -> list[str]:
    """A column's values as text; its floats share one format, so that their
    decimal points line up."""
    finite = [i for i, value in enumerate(values) if isinstance(value, float) and math.isfinite(value)]
    scientific = any(0 < abs(values[i]) < 10 ** -DECIMALS or abs(values[i]) >= 10 ** 15 for i in finite)
    float_format = f".{DECIMALS}e" if scientific else f".{DECIMALS}f"
    texts = [_text(value, float_format) for value in values]
    if not scientific and finite:
        # the decimals no value needs, dropped from all of them alike
        spare = min(len(texts[i]) - len(texts[i].rstrip("0")) for i in finite)
        spare = min(spare, DECIMALS - 1)
        for i in finite:
            texts[i] = texts[i][:len(texts[i]) - spare]
    return texts


def _text(value: Any, float_format: str) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return format(value, float_format) if math.isfinite(value) else str(value)
    return str(value)
