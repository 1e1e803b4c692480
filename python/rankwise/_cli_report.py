"""`rankwise report`: the HTML report of an evaluation, from the command line.
Registered on the `rankwise` group by cli.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from collections.abc import Callable

from . import _report
from ._progress import stages

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def report_command(common_options: Decorator, one_line_errors: Decorator,
                   arguments: Callable[[dict[str, Any]], dict[str, Any]]) -> click.Command:
    """The command, built with the options and error handling of cli.py (passed
    in rather than imported: `python -m rankwise.cli` runs cli.py as __main__)."""

    @click.command("report")
    @common_options
    @click.option("--title", default="rankwise report", show_default=True, help="The report's title.")
    @click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
                  default=Path("rankwise_report.html"), show_default=True, help="The HTML file to write.")
    @one_line_errors
    def report(output: Path, title: str, per_user: bool, **options: Any) -> None:
        """Write an HTML report of RECOMMENDATIONS evaluated against INTERACTIONS
        (Parquet or CSV files): the metrics per group, their curves over k, the
        per-user distributions, the metrics over the partitions of --partition-by
        and the data-quality notes, in one file that opens offline."""
        if per_user:
            raise click.BadParameter("the report always shows the per-user distributions.", param_hint="--per-user")
        if output.suffix.lower() not in (".html", ".htm"):
            raise click.BadParameter(f"'{output}': the file name must end in .html.", param_hint="--output")
        try:
            _report.require_plotly()
        except ImportError as error:
            raise click.ClickException(str(error)) from error
        with stages() as stage:
            data = _report.compute(title=title, stage=stage, **arguments(options))
            stage("writing")
            written = _report.write(data, output)
        click.echo(f"wrote {written}", err=True)

    return report
