"""The benchmark of rankwise against the floor query and its peers, run as
`python -m benchmarks` from the repository's root (docs/benchmarks.md).

generate.py makes the data, tools.py holds the tools measured, harness.py
measures them each in a fresh process (peak_memory.py reads a process's peak
memory, for the harness's workers and for the Spark and PostgreSQL tools),
targets.py holds the targets the report judges, report.py writes the reports,
and diagnostics.py looks into the queries' plans (--profile, --pushdown)."""
