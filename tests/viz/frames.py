"""The figures the viz tests draw.

The animated sweep: three frames (ε = 1, 0.1, 0.01) of a method with a band, its theory curve and the non-private
baseline, over four sample sizes (the ``fig`` fixture of ``conftest.py`` is its figure); and the one-frame example the
valid calls of several viz modules take (``EXAMPLE_FRAME``, ``EXAMPLE_FIGURE``).
"""

import numpy as np

from dpcore.viz import FrameData, Series, animated_sweep, line_figure

N = np.array([10.0, 100.0, 1_000.0, 10_000.0])
EPSILONS = (1.0, 0.1, 0.01)  # later frames reach further than the first
EXAMPLE_FRAME = FrameData("1", [Series("Laplace", [1.0, 2.0], [0.5, 0.25])])
EXAMPLE_FIGURE = line_figure(EXAMPLE_FRAME.series, x_title="n", y_title="error")


def make_frames(epsilons=EPSILONS) -> list[FrameData]:
    """One frame per epsilon: a simulated method with a band, its theory curve, the non-private baseline."""
    frames = []
    for eps in epsilons:
        median = 1 / np.sqrt(N) + 1 / (eps * N)
        frames.append(FrameData(f"{eps:g}", [
            Series("Laplace", N, median, lower=0.5 * median, upper=2 * median),
            Series("theory", N, 1.1 * median, kind="theory"),
            Series("non-private", N, 1 / np.sqrt(N), kind="baseline"),
        ]))
    return frames


def make_figure(**kwargs):
    options = dict(x_title="sample size n", y_title="|error|", frame_title="ε")
    return animated_sweep(make_frames(), **(options | kwargs))
