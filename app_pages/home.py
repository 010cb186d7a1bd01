"""Home: what differential privacy promises, seen on the Laplace mechanism, and a map of the lab."""

import inspect
import math

import numpy as np
import streamlit as st

import ui
from dpcore import mechanisms, viz
from registry import PAGES

COUNT = 42  # f(X): how many people in X have the property; f(X') = COUNT + 1
EPSILON = ui.epsilon_spec(default=1.0, low=0.1, high=5.0)
SEED = 0


def neighbouring_densities(epsilons, count=42, presentation=False, start=None):
    """Laplace-mechanism output densities on neighbouring counts, one animation frame per ε.

    Each curve is divided by its peak ε/2, which leaves every ratio between curves unchanged.
    """
    z = np.linspace(count - 8, count + 9, 171)
    frames = []
    for eps in epsilons:
        on_x = np.exp(-eps * np.abs(z - count))
        on_x_prime = np.exp(-eps * np.abs(z - count - 1))
        frames.append(viz.FrameData(f"{eps:g}", [
            viz.Series(f"on X (count {count})", z, on_x, kind="curve", color=viz.OKABE_ITO["blue"]),
            viz.Series(f"on X′ (count {count + 1})", z, on_x_prime, kind="curve", color=viz.OKABE_ITO["vermillion"]),
            viz.Series("e<sup>−ε</sup> × on X", z, np.exp(-eps) * on_x, kind="theory",
                       color=viz.METHOD_COLORS["theory"]),
        ]))
    return viz.animated_sweep(frames, x_title="released count z", y_title="likelihood of z (peak = 1)",
                              frame_title="ε", title="Laplace mechanism on neighbours X, X′",
                              log_x=False, log_y=False, presentation=presentation, start=start)


SNIPPET = '''"""Reproduce the home figure of Private Estimation Lab in a notebook."""
import numpy as np

from dpcore import viz


{source}

fig = neighbouring_densities({epsilons}, count={count})
fig.show()
'''


def lab_map() -> str:
    """The map of the lab: every topic page of the registry, in teaching order, linked to its URL path."""
    rows = [f"| [{page.title}](/{page.url_path}) | {page.summary} | {'; '.join(page.papers)} |"
            for page in PAGES if page.url_path]
    return "\n".join(["| topic | what it teaches | seed papers |", "|---|---|---|", *rows])


ui.setup_page("Private Estimation Lab", "🔒")
eps = ui.controls([EPSILON])["eps"]
ui.prose(
    "A statistic computed from people's data is **differentially private** if its output would look "
    "almost the same had any one person's data been different. *Almost the same* has a number: ε."
)
ui.formula(r"\Pr[M(X)\in S] \;\le\; e^{\varepsilon}\,\Pr[M(X')\in S] + \delta"
           r"\qquad \forall\, X \sim X',\ \forall\, S")
ui.prose(
    "Here *X* and *X′* are **neighbouring** datasets (*X* ∼ *X′*): they differ in one person's row, and *S* is "
    "any set of possible outputs. "
    "*M* is a randomised algorithm, ε the privacy budget (smaller = more private) and δ a small "
    "probability with which the promise may fail (δ = 0 is *pure* DP)."
)

st.subheader("One person, one count")
ui.prose(
    f"A class counts how many students have some property: {COUNT} in *X*. In *X′* one student's answer "
    f"changed, so the count is {COUNT + 1}. The **Laplace mechanism** releases the count plus noise of scale "
    "1/ε (the count changes by at most 1 between neighbours). The curves show how likely each released value is "
    "under *X* and under *X′*. Press **Play** or drag the slider under the chart to sweep ε; the sidebar "
    "chooses where the chart starts."
)
fig = neighbouring_densities(EPSILON.options, COUNT, ui.presentation_mode(), start=f"{eps:g}")
ui.animated(fig, "home_densities")

on_x, on_x_prime = (np.asarray(trace.y) for trace in fig.frames[EPSILON.options.index(eps)].data[:2])
largest_ratio = float(np.max(on_x / on_x_prime))
releases = mechanisms.laplace(np.full(10_000, float(COUNT)), 1.0, eps, rng=SEED)
median_error = float(np.median(np.abs(releases - COUNT)))
st.markdown(
    f"**What to notice at ε = {eps:g}**\n"
    f"- The largest ratio between the two curves on screen is {largest_ratio:.3f} = $e^{{{eps:g}}}$: no released "
    f"value is more than {math.exp(eps):.3g} times likelier under *X* than under *X′*. *X′* never drops "
    "below the dashed floor, $e^{-\\varepsilon}$ times the curve on *X*.\n"
    f"- Someone who thought *X* and *X′* equally likely can be at most "
    f"{math.exp(eps) / (1 + math.exp(eps)):.0%} sure which one it was after seeing the release.\n"
    f"- The price: 10,000 simulated releases (seed {SEED}) miss the true count by {median_error:.2f} "
    f"people in the median (theory: ln 2 / ε = {math.log(2) / eps:.2f})."
)
ui.downloads(fig, name="laplace_neighbours", snippet=SNIPPET.format(
    source=inspect.getsource(neighbouring_densities), epsilons=list(EPSILON.options), count=COUNT))

st.subheader("The lab")
st.markdown(lab_map())

ui.prose(
    "### How to use it\n"
    "- **Controls** live in the sidebar. ε moves on a **log scale** (1, 1.5, 2, 3, 5, 7 per decade), so "
    "0.1 and 1 are as far apart as 1 and 10.\n"
    "- **Animated charts**: *Play* sweeps one parameter; drag the slider under the chart to stop on a frame.\n"
    "- **The link is the state**: the address bar always holds every control's value "
    "(e.g. `?eps=0.5`). Copy it and your students open exactly what you see.\n"
    "- **Presentation mode**: add `present=1` to the link (`?eps=0.5&present=1`) for large fonts and "
    "no explanatory text.\n"
    "- **Downloads** under each chart: the plotted numbers (CSV), the interactive chart as one offline HTML "
    "file, and a Python snippet that redraws it with `dpcore` in a notebook."
)

ui.prose(
    "### The papers behind it\n"
    "- *Private Mean Estimation of Heavy-Tailed Distributions* — Gautam Kamath, Vikrant Singhal, "
    "Jonathan Ullman (COLT 2020).\n"
    "- *Efficient Private Mean Estimation* — slides by Gautam Kamath on joint work with Samuel B. Hopkins "
    "and Mahbod Majid (STOC 2022).\n"
    "- *A Polynomial Time, Pure Differentially Private Estimator for Binary Product Distributions*.\n"
    "- *User-Level Differential Privacy With Few Examples Per User*.\n"
    "- *Private Statistical Estimation via Truncation*."
)
