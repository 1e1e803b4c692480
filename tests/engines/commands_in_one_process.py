"""Runs several dbt commands in one process, through dbt's programmatic entry
point, so that they share one start-up (and on Spark one SparkSession, which
dbt-spark's session method keeps for the life of the process). Each command's
output is framed by marker lines on stdout, with its exit code:

    python -c "$(cat commands_in_one_process.py)" '[["build", ...], ["show", ...]]'

It is run from its text, not as a file: dbt imports every module named dbt_*
it finds on sys.path as a plugin, and a script's folder is put first there
(this folder has dbt_project_runner.py).
"""

from __future__ import annotations

import json
import sys

MARKER = "@@rankwise-dbt-command"


def main() -> None:
    from dbt.cli.main import dbtRunner

    runner = dbtRunner()
    for index, arguments in enumerate(json.loads(sys.argv[1])):
        print(f"{MARKER} {index} start", flush=True)
        result = runner.invoke(arguments)
        sys.stdout.flush()
        sys.stderr.flush()
        print(f"{MARKER} {index} exit {0 if result.success else 1}", flush=True)


if __name__ == "__main__":
    main()
