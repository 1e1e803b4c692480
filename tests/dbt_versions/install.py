"""Makes the virtual environment of one line of versions.txt:
`python tests/dbt_versions/install.py 1.9 .venv-dbt-1.9`.

dbt-core and dbt-duckdb at the versions the line pins; with `without=<package>`,
the two are installed without their requirements, then every requirement of
theirs (as their metadata states it, extras aside) but that package."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

VERSIONS = Path(__file__).with_name("versions.txt")


def line_of(minor: str) -> tuple[list[str], list[str]]:
    """The pinned requirements of `minor`'s line and the packages it leaves out."""
    for line in VERSIONS.read_text().splitlines():
        fields = line.split()
        if fields and not fields[0].startswith("#") and fields[0] == minor:
            pins = [field for field in fields[1:] if "==" in field]
            without = [field.removeprefix("without=") for field in fields[1:] if field.startswith("without=")]
            return pins, without
    raise SystemExit(f"{VERSIONS} has no line for dbt {minor}")


def _name(requirement: str) -> str:
    for separator in "<>=!~;[ (":
        requirement = requirement.split(separator)[0]
    return requirement.strip().lower().replace("_", "-")


def main(minor: str, venv: str) -> None:
    pins, without = line_of(minor)
    python = str(Path(venv) / "bin" / "python")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    if not without:
        subprocess.run([*pip, *pins], check=True)
        return
    subprocess.run([*pip, "--no-deps", *pins], check=True)
    pinned = [_name(pin) for pin in pins]
    stated = subprocess.run(
        [python, "-c", "import importlib.metadata as m, json, sys; "
                       "print(json.dumps([r for name in sys.argv[1:] for r in (m.requires(name) or [])]))", *pinned],
        capture_output=True, text=True, check=True).stdout
    requirements = [requirement for requirement in json.loads(stated)
                    if "extra ==" not in requirement and _name(requirement) not in {*pinned, *map(_name, without)}]
    subprocess.run([*pip, *requirements], check=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
