"""PNG plots (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_ratings(summary: Mapping[str, Any], path: Path, title: str = "Ratings") -> Path:
    """Each agent's openskill mu with its mu ± 2 sigma interval, best first."""
    plt = _pyplot()
    rows = [a for a in summary["agents"] if "rating" in a]
    names = [a["agent"] for a in rows]
    mus = [a["rating"]["mu"] for a in rows]
    errs = [2 * a["rating"]["sigma"] for a in rows]
    fig, ax = plt.subplots(figsize=(7, 0.6 * max(2, len(rows)) + 1.2))
    ys = list(range(len(rows)))[::-1]
    ax.errorbar(mus, ys, xerr=errs, fmt="o", capsize=4, color="tab:blue")
    ax.set_yticks(ys, names)
    ax.set_xlabel("openskill rating (Plackett-Luce): mu ± 2 sigma")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def plot_bars(
    labels: Sequence[str],
    values: Sequence[float],
    path: Path,
    title: str,
    ylabel: str,
    lows: Sequence[float] | None = None,
    highs: Sequence[float] | None = None,
    reference: float | None = None,
) -> Path:
    """Bars with optional intervals and a reference line (e.g. the fair share 1/players)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(4, 0.9 * len(labels) + 2), 3.5))
    yerr = None
    if lows is not None and highs is not None:
        yerr = [
            [v - lo for v, lo in zip(values, lows, strict=True)],
            [hi - v for v, hi in zip(values, highs, strict=True)],
        ]
    ax.bar(labels, values, yerr=yerr, capsize=4, color="tab:blue", alpha=0.8)
    if reference is not None:
        ax.axhline(reference, color="tab:red", linestyle="--", linewidth=1)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    return _save(fig, path)


def plot_histograms(
    series: Mapping[str, Sequence[float]], path: Path, title: str, xlabel: str
) -> Path:
    """Overlaid histograms, one per named series (e.g. scores per seat)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.5))
    values = [v for vs in series.values() for v in vs]
    if values:
        low, high = min(values), max(values)
        bins: Any = [x - 0.5 for x in range(int(low), int(high) + 2)] if high - low < 60 else 30
        for name, vs in series.items():
            ax.hist(vs, bins=bins, alpha=0.45, label=name)
        ax.legend()
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    return _save(fig, path)


def plot_shares(
    labels: Sequence[str],
    shares: Sequence[tuple[float, float, float]],
    path: Path,
    title: str,
    fair: Sequence[float],
) -> Path:
    """One row per label, best first: a share with its interval (value, low, high), and each
    row's fair share as a red tick (e.g. the win share of a card's takers)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 0.28 * max(4, len(labels)) + 1.2))
    ys = list(range(len(labels)))[::-1]
    values = [v for v, _, _ in shares]
    errs = [[v - lo for v, lo, _ in shares], [hi - v for v, _, hi in shares]]
    ax.errorbar(values, ys, xerr=errs, fmt="o", capsize=3, color="tab:blue", markersize=4)
    ax.scatter(fair, ys, marker="|", s=120, color="tab:red", label="fair share", zorder=3)
    ax.set_yticks(ys, labels, fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.8, len(labels) - 0.2)
    ax.set_xlabel("win share of the players who took it (takers)")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def _save(fig: Any, path: Path) -> Path:
    """Write `fig` to `path` (its folder made if needed) and free it."""
    plt = _pyplot()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
