"""What the notebooks share: run `sim` when its output is missing, read it with polars, save figures.

Every run writes to its own folder under the results folder with the command line beside it
(command.txt); a folder whose command matches is reused, any other is run again. `notebooks/run
--fresh` (or deleting the folder) redoes every run.

The results folder is results/notebooks/ unless the environment variable SIM_RESULTS names
another (`notebooks/run --results DIR` sets it). A run's folder there that holds the files the
notebook reads but no command.txt is one's own: it is read as it is and never run again, so a
notebook can plot results made by hand (e.g. `sim balance ... --out DIR/crownfall-balance`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parent.parent
"""The repository: notebooks/ is one level below it."""

DATA = (Path(os.environ["SIM_RESULTS"]).resolve() if os.environ.get("SIM_RESULTS")
        else ROOT / "results" / "notebooks")
"""Where the notebooks' sim runs write and are read from: $SIM_RESULTS, else results/notebooks/
(git-ignored)."""

FIGURES = ROOT / "results" / "figures"
"""Where every figure is saved as PNG (git-ignored; the copies docs/ shows are in notebooks/figures/)."""


def sim_binary() -> Path:
    """The release binary: $SIM if set, else target/release/sim (built by notebooks/run)."""
    path = Path(os.environ.get("SIM", ROOT / "target" / "release" / "sim"))
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `cargo build --release` or notebooks/run")
    return path


def _run_cached(args: list[str], out: Path, outputs: list[str]) -> str:
    """Runs `sim ARGS` (which writes `outputs` into `out`) unless `out` holds them from the same
    command; returns what sim printed."""
    command = " ".join(args)
    stamp, log = out / "command.txt", out / "stdout.txt"
    if not stamp.exists() and outputs and all((out / f).exists() for f in outputs):
        print(f"reading {out}: results made outside the notebook, used as they are")
        return log.read_text() if log.exists() else ""
    fresh = stamp.exists() and stamp.read_text() == command
    if not (fresh and log.exists() and all((out / f).exists() for f in outputs)):
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        print(f"running: sim {command}")
        done = subprocess.run(
            [str(sim_binary()), *args], cwd=ROOT, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise RuntimeError(f"sim {command} failed ({done.returncode}): {done.stderr.strip()}")
        log.write_text(done.stdout)
        stamp.write_text(command)
    return log.read_text()


@dataclass
class Run:
    """One sim run's files, read with polars."""

    summary: pl.DataFrame
    """summary.parquet, one row per policy or cell, with a `cell` column (the row number) that
    distributions.parquet's `cell` points at."""
    distributions: pl.DataFrame
    """distributions.parquet: policy, cell, metric, value, count."""
    folder: Path
    """The run's folder, for the files only some commands write (a tournament's ratings)."""

    def table(self, file: str) -> pl.DataFrame:
        """Another Parquet file of the run, e.g. "ratings.parquet" of a tournament."""
        return pl.read_parquet(self.folder / file)

    def distribution(self, metric: str) -> pl.DataFrame:
        """One metric's histogram per cell, with the cell's policy and `share` (count / games)."""
        d = self.distributions.filter(pl.col("metric") == metric)
        totals = d.group_by("cell").agg(pl.col("count").sum().alias("games"))
        return d.join(totals, on="cell").with_columns(share=pl.col("count") / pl.col("games"))


def _out(out: Path) -> str:
    """A run folder as --out takes it: relative to the repository when inside it."""
    return str(out.relative_to(ROOT)) if out.is_relative_to(ROOT) else str(out)


def sim(name: str, *args: str) -> Run:
    """Runs `sim ARGS --out DATA/NAME` if its files are missing, returns them.

    `args` is everything but --out, e.g. ("compare", "crownfall", "--policy", "optimal")."""
    out = DATA / name
    _run_cached([*args, "--out", _out(out)], out,
                ["summary.parquet", "distributions.parquet"])
    summary = pl.read_parquet(out / "summary.parquet").with_row_index("cell")
    return Run(summary.with_columns(pl.col("cell").cast(pl.UInt64)),
               pl.read_parquet(out / "distributions.parquet"), out)


def balance(name: str, *args: str) -> pl.DataFrame:
    """Runs `sim balance ARGS --out DATA/NAME` if its files are missing and returns
    balance.parquet: one row per candidate played, with its value, 95% interval (ci_low,
    ci_high), the interval its verdict was decided on (decision_low, decision_high), verdict and
    whether it is the answer."""
    out = DATA / name
    _run_cached(["balance", *args, "--out", _out(out)], out, ["balance.parquet"])
    return pl.read_parquet(out / "balance.parquet")


def evaluate(name: str, *args: str) -> pl.DataFrame:
    """Runs `sim evaluate ARGS --out DATA/NAME` if its files are missing and returns
    evaluate.parquet: one row per figure of every rule set, with its value and 95% interval and,
    with --vary, its difference from the first rule set's (diff, diff_ci_low, diff_ci_high)."""
    out = DATA / name
    _run_cached(["evaluate", *args, "--out", _out(out)], out, ["evaluate.parquet"])
    return pl.read_parquet(out / "evaluate.parquet")


def solve(name: str, *args: str) -> dict[str, float]:
    """Runs `sim solve crownfall ARGS` once (cached in results/notebooks/NAME) and returns the
    fresh-odds win probabilities it printed: "optimal" and every --evaluate policy."""
    text = _run_cached(["solve", "crownfall", *args], DATA / name, [])
    found = {"optimal": float(re.search(r"optimal win probability .*\((0\.\d+|1\.0*)\)", text)[1])}
    for policy, percent in re.findall(r"^(\S+): ([\d.]+)% under fresh odds", text, re.M):
        found[policy] = float(percent) / 100
    return found


def mean_ci(run: Run, metric: str, cell: int) -> tuple[float, float]:
    """Mean of one cell's metric and its 95% normal interval half-width, from its histogram."""
    d = run.distribution(metric).filter(pl.col("cell") == cell)
    values, weights = d["value"].to_numpy(), d["count"].to_numpy()
    mean = np.average(values, weights=weights)
    sd = np.sqrt(np.average((values - mean) ** 2, weights=weights))
    return mean, 1.959964 * sd / np.sqrt(weights.sum())


def wilson(wins, games, z: float = 1.959964):
    """95% Wilson score interval (low, high) for wins out of games; works on numbers and arrays,
    as sim's own win_ci_low and win_ci_high do."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * ((p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5)
    return centre - half, centre + half


def percent_errors(rate, low, high):
    """Rates and their interval (fractions, array-likes) as percentages and the two-row error-bar
    array matplotlib's yerr/xerr want (distances below and above, never negative)."""
    rate, low, high = (100 * np.asarray(v, dtype=float) for v in (rate, low, high))
    return rate, np.clip([rate - low, high - rate], 0, None)


def count(n: int) -> str:
    """A game count as a title shows it: 200000 -> 200K, 1000000 -> 1M."""
    for size, suffix in ((1_000_000, "M"), (1_000, "K")):
        if n >= size and n % size == 0:
            return f"{n // size}{suffix}"
    return f"{n:,}"


def save(fig, name: str) -> Path:
    """Saves a figure as results/figures/NAME.png (100 dpi) and returns the path."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / f"{name}.png"
    fig.savefig(path, dpi=100, bbox_inches="tight")
    print(f"saved {path.relative_to(ROOT)}")
    return path

