"""The benchmark of rankwise against the floor query and its peers, run as
`python -m benchmarks` from the repository's root (docs/benchmarks.md).

generate.py makes the data, tools.py holds the tools measured, harness.py
measures them each in a fresh process, targets.py holds the targets the
report judges, report.py writes the reports, and diagnostics.py looks into the
queries' plans (--profile, --pushdown)."""
