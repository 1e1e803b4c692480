"""`rankwise report`: the HTML report of an evaluation, from the command line.
Registered on the `rankwise` group by cli.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ._progress import stages

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def report_command(common_options: Decorator, one_line_errors: Decorator,
                   arguments: Callable[[dict[str, Any]], dict[str, Any]], gate_options: Decorator,
                   comparison_options: Decorator, report_failed_gates: Callable[..., None]) -> click.Command:
    """The command, built with the options, error handling and gates of cli.py
    (passed in rather than imported: `python -m rankwise.cli` runs cli.py as
    __main__)."""

    @click.command("report")
    @common_options
    @click.option("--model-col", default=None,
                  help="The --group-by column whose values are the models (default: the first --group-by).")
    @comparison_options
    @gate_options
    @click.option("--title", default="rankwise report", show_default=True, help="The report's title.")
    @click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
                  default=Path("rankwise_report.html"), show_default=True, help="The HTML file to write.")
    @one_line_errors
    def report(output: Path, title: str, per_user: bool, model_col: str | None, baseline: str | None,
               correction: str, alpha: float, margin: float | None, fail_if_worse: bool, fail_under: tuple,
               fail_over: tuple, gate_on: str, **options: Any) -> None:
        """Write an HTML report of RECOMMENDATIONS evaluated against INTERACTIONS
        (Parquet, CSV or TREC files): with --baseline, the verdict of each model against
        it and the comparison; the metrics per group, their curves over k, the
        per-user distributions, the metrics over the partitions of --partition-by
        and the data-quality notes, in one file that opens offline. A gate that
        fails exits with code 3 after the report is written."""
        if per_user:
            raise click.BadParameter("the report always shows the per-user distributions.", param_hint="--per-user")
        if output.suffix.lower() not in (".html", ".htm"):
            raise click.BadParameter(f"'{output}': the file name must end in .html.", param_hint="--output")
        if fail_if_worse and margin is None:
            raise click.UsageError("--fail-if-worse tests non-inferiority at a margin: give --margin, such as 0.01.")
        if margin is not None and baseline is None:
            raise click.UsageError("--margin is how much worse than the baseline still counts as no worse: give "
                                   "--baseline too.")
        # Imported here: the other commands need neither the report nor what it imports.
        from . import _report

        try:
            _report.require_plotly()
        except ImportError as error:
            raise click.ClickException(str(error)) from error
        verdict = _report.Verdict(alpha=alpha, margin=margin,
                                  gates=_report.Gates(at_least=dict(fail_under), at_most=dict(fail_over), on=gate_on))
        with stages() as stage:
            data = _report.compute(title=title, stage=stage, baseline=baseline, model_col=model_col,
                                   correction=correction, verdict=verdict, **arguments(options))
            stage("writing")
            written = _report.write(data, output)
        click.echo(f"wrote {written}", err=True)
        for line in _report.verdict_lines(_report.decisions(data)):
            click.echo(line)
        report_failed_gates((data.failing_metrics, "metric rows outside their bounds"),
                            (data.failing_comparisons if fail_if_worse else None,
                             "comparisons where a model is not shown to be no worse than the baseline"))

    return report
