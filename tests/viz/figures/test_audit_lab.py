"""The audit lab's figures (dpcore.viz.figures.audit_lab)."""

from tests.examples import AUDIT

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "audit_histograms": dict(AUDIT, start=None, presentation=False, revealed=False),
    "bound_vs_draws": dict(AUDIT, presentation=False),
    "attacker_plane": dict(epsilon=1.0, players={"you (2 rounds)": [0.5, 1.0]}, presentation=False),
}


def test_the_players_point_comes_with_its_confidence_cross():
    """A player's point with the ends of its rates' intervals gets a horizontal and a vertical segment through it,
    joined to its legend entry; without them (or with an undefined rate) only the point."""
    import numpy as np

    from dpcore.lessons import audit_lab as lesson
    from dpcore.viz.figures.audit_lab import attacker_plane

    rates = lesson.attacker_rates([True] * 5 + [False] * 5, [True] * 4 + [False] * 5 + [True])  # TPR 0.8, FPR 0.2
    low_f, high_f = rates["fpr_interval"]
    low_t, high_t = rates["tpr_interval"]
    assert (round(low_t, 4), round(high_t, 4)) == (0.2836, 0.9949)  # 4 of 5, exact Clopper–Pearson at 95 %
    player = "you (10 rounds)"
    fig = attacker_plane(1.0, {player: [rates["fpr"], rates["tpr"], low_f, high_f, low_t, high_t]})
    traces = {trace.name: trace for trace in fig.data}
    across = traces[f"{player}: 95 % range of the false-positive rate"]
    up = traces[f"{player}: 95 % range of the true-positive rate"]
    np.testing.assert_allclose(across.x, [low_f, high_f])
    np.testing.assert_allclose(across.y, [0.8, 0.8])
    np.testing.assert_allclose(up.x, [0.2, 0.2])
    np.testing.assert_allclose(up.y, [low_t, high_t])
    assert across.legendgroup == up.legendgroup == traces[player].legendgroup and not across.showlegend
    assert len(attacker_plane(1.0, {player: [0.2, 0.8]}).data) == len(fig.data) - 2
    undefined = [float("nan"), 0.8, float("nan"), float("nan"), low_t, high_t]  # no round with the target out
    assert player not in {trace.name for trace in attacker_plane(1.0, {player: undefined}).data}


def previous_histograms(outputs, events, counts):
    """The running histograms as the figure computed them before: explicit edges (one per outcome, or 61 over the
    event grid), each prefix's pieces sorted by np.histogram."""
    import numpy as np

    edges = np.arange(events + 1) - 0.5 if isinstance(events, int) else np.linspace(events[0], events[-1], 61)
    pieces = np.split(np.clip(outputs[:counts[-1]], edges[0], edges[-1]), counts[:-1])
    return edges, np.cumsum([np.histogram(piece, edges)[0] for piece in pieces], axis=0)


def test_the_running_histograms_are_bit_for_bit_the_previous_ones():
    """Binned by arithmetic on the same evenly spaced edges, every mechanism's histograms are the integers the
    sorted binning gave, at the page's extremes (ε 0.1 and 5, 1,000 and 1,000,000 draws) and on clipped outputs."""
    import numpy as np

    from dpcore.lessons import audit_lab as lesson
    from dpcore.viz.figures import audit_lab as figures

    for mechanism in lesson.MECHANISMS:
        for letter, epsilon, draws, seed in (("A", 0.1, 1_000, 0), ("B", 5.0, 20_000, 3), ("A", 1.0, 1_000_000, 7)):
            path = lesson.audit_path(mechanism, letter, epsilon, draws, 0.95, seed)
            bins = figures._bins(path["events"])
            for outputs in (path["x"], path["neighbour"]):
                edges, expected = previous_histograms(outputs, path["events"], path["draws"])
                np.testing.assert_array_equal(np.linspace(bins[1], bins[2], bins[0] + 1), edges)
                histograms = figures._running_histograms(outputs, bins, path["draws"])
                assert histograms.dtype == expected.dtype
                np.testing.assert_array_equal(histograms, expected)
