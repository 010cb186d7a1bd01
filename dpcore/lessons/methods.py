"""Every method the lessons compare, by id: one label per method across the whole lab.

Sweeps name their methods by id (``SweepResult.methods``); figures show the label and draw the colour that
:mod:`dpcore.viz.style` keys by the same id, so a method reads and looks the same on every page.
"""

from __future__ import annotations

from ..core.validation import Choice, validated

__all__ = ["LABELS", "label"]

#: id -> the label legends and tables show.
LABELS: dict[str, str] = {
    # references
    "non_private": "non-private",
    "theory": "theory",
    "lower_bound": "lower bound",
    # noise for a d-dimensional mean (pure vs approximate DP)
    "laplace": "Laplace",
    "gaussian_classical": "Gaussian (classical)",
    "gaussian_analytic": "Gaussian (analytic)",
    "zcdp_gaussian": "zCDP Gaussian",
    "clipped_laplace": "clipped Laplace",
    # heavy-tailed means (truncation bias)
    "ksu20": "private range, then clip",
    "ksu20_zcdp": "private range, then clip (zCDP)",
    "naive_window": "naive",
    "private_part": "private part (bias + noise)",
    "naive_truncated_mean": "naive truncated mean",
    "truncated_mle_moments": "truncated MLE (moment matching)",
    "truncated_mle_dpgd": "truncated MLE (DP gradient descent)",
    # private quantiles (exponential mechanism over a public range)
    "private_q1": "private 25th percentile",
    "private_median": "private median",
    "private_q3": "private 75th percentile",
    # private selection (exponential mechanism, tournament)
    "exponential_mechanism": "exponential mechanism",
    "report_noisy_max": "report noisy max",
    "permute_and_flip": "permute-and-flip",
    "private_selection": "private selection (EM)",
    "scheffe_tournament": "Scheffé tournament (non-private)",
    "minimum_distance": "minimum distance (non-private)",
    # user-level privacy
    "user_level_clipped": "user-level, clipped",
    "group_privacy": "group privacy (Δ = m)",
    "one_per_user": "one example per user",
    "item_level": "item-level on all n·m (weaker)",
    # binary product distributions (partitioning rounds)
    "partition_pure": "partition rounds (pure)",
    "partition_zcdp": "partition + Gaussian (zCDP)",
    "naive_laplace": "naive Laplace",
    "one_shot_gaussian": "one-shot Gaussian (ε, δ)",
    "oracle_laplace": "one-shot Laplace (oracle radius)",
}


@validated(method=Choice(tuple(LABELS)))
def label(method: str) -> str:
    """The label of method id ``method``.

    >>> label("ksu20")
    'private range, then clip'
    """
    return LABELS[method]
