"""rankwise's own metadata, read without importing anything heavy."""

from __future__ import annotations


def version() -> str:
    """pyproject.toml's version, as pip installed it: one number to bump
    (dbt_project.yml repeats it for dbt, and tests/unit/test_version.py holds
    the two equal)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("rankwise")
    except PackageNotFoundError:  # imported from a source tree that was never installed
        return "0+unknown"
