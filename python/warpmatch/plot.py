"""Plots of warpmatch's results (matplotlib, imported when a plot is drawn).

``motif_profile`` draws the significance profile of ``Graph.motifs(size,
random=N)`` as Milo et al. (Science 2004, "Superfamilies of evolved and
designed networks") draw it: one point per class, joined by a line, the
normalised z-score on the y axis between -1 and 1, a zero line.
"""

from __future__ import annotations

from typing import Any

__all__ = ["motif_profile"]


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError(
            "warpmatch.plot needs matplotlib (pip install matplotlib, or apt-get install python3-matplotlib)"
        ) from e
    return plt


def _columns(result: Any) -> tuple[list[str], list[float]]:
    """The class names and profile values of a DataFrame or a list of MotifSignificance."""
    if hasattr(result, "columns"):
        return [str(n) for n in result["name"]], [float(p) for p in result["profile"]]
    rows = list(result)
    return [r.name for r in rows], [float(r.profile) for r in rows]


def motif_profile(result: Any, ax: Any = None, label: str | None = None, **line: Any) -> Any:
    """Draws the significance profile of ``result`` (``Graph.motifs(size,
    random=N)``'s table) on ``ax`` (default: a new figure's axes) and returns
    the axes.  Classes whose z is undefined (NaN: the random counts did not
    vary) leave a gap.  ``label`` names the line for a legend, so that several
    graphs' profiles can share one axes; ``line`` goes to ``ax.plot``."""
    names, profile = _columns(result)
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(max(4.0, 0.6 * len(names) + 2), 3.5))
    x = list(range(len(names)))
    ax.plot(x, profile, marker="o", label=label, **line)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xticks(x)
    ax.set_xticklabels(names, rotation=45, ha="right")
    ax.set_ylim(-1.05, 1.05)
    ax.set_ylabel("normalised z-score (SP)")
    ax.set_title("motif significance profile")
    if label is not None:
        ax.legend()
    return ax
