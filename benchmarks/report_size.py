"""Size and drawing time of the HTML report at scale: N models x 20 metric labels
(5 metrics at 4 cutoffs) over U users, as in docs/report.md.

    python benchmarks/report_size.py --models 100 --users 1000

Prints the time to evaluate and write the report, the file's size, and the time
headless Chromium takes from navigation to the last chart drawn (the page's
data-render-ms), the median of --repeat openings."""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import rankwise

METRICS = ["precision", "recall", "map", "ndcg", "hit_rate"]
K = [1, 5, 10, 20]


def inputs(models: int, users: int, seed: int = 7) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Lists of 20 of 5,000 items; each model finds a share of the user's own
    items that grows with its number, so that the models differ."""
    generator = np.random.default_rng(seed)
    truth = generator.integers(0, 5_000, size=(users, 10))
    interactions = pd.DataFrame({"user_id": np.repeat(np.arange(users), 10), "item_id": truth.ravel()})
    interactions = interactions.drop_duplicates()
    frames = []
    for model in range(models):
        lists = generator.integers(0, 5_000, size=(users, 20))
        found = generator.random((users, 20)) < 0.02 + 0.2 * model / models
        lists = np.where(found, truth[:, generator.integers(0, 10, size=20)], lists)
        frame = pd.DataFrame({"model": f"model_{model:03d}", "user_id": np.repeat(np.arange(users), 20),
                              "item_id": lists.ravel(), "rank": np.tile(np.arange(1, 21), users)})
        frames.append(frame.drop_duplicates(["user_id", "item_id"]))
    return pd.concat(frames, ignore_index=True), interactions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, default=None, help="Also copy the report here.")
    arguments = parser.parse_args()
    recommendations, interactions = inputs(arguments.models, arguments.users)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "report.html"
        started = time.perf_counter()
        data = rankwise._report.compute(recommendations, interactions, METRICS, K, group_by="model")
        computed = time.perf_counter()
        rankwise._report.write(data, path)
        written = time.perf_counter()
        print(f"{arguments.models} models x {len(METRICS) * len(K)} metric labels, {arguments.users} users, "
              f"{len(recommendations):,} recommended rows")
        print(f"check + evaluate: {computed - started:.2f} s; writing the HTML: {written - computed:.2f} s")
        print(f"size: {path.stat().st_size / 1e6:.2f} MB (plotly.js: {len(_plotly_js()) / 1e6:.2f} MB)")
        chromium = shutil.which("chromium")
        if chromium:
            drawn = []
            for _ in range(arguments.repeat):
                dom = subprocess.run(
                    [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=60000",
                     "--dump-dom", path.as_uri()], capture_output=True, text=True, check=True).stdout
                drawn.append(int(re.search(r'data-render-ms="(\d+)"', dom).group(1)))
            print(f"drawn in headless Chromium: {statistics.median(drawn)} ms after navigation (median of {len(drawn)})")
        if arguments.keep:
            shutil.copy(path, arguments.keep)


def _plotly_js() -> str:
    import plotly.offline

    return plotly.offline.get_plotlyjs()


if __name__ == "__main__":
    main()
