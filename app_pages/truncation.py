"""Truncation bias: clip to bound sensitivity, pay in bias, and take the bias back (seeds 004 and 003)."""

import math

import numpy as np
import streamlit as st

import ui
from dpcore import mechanisms, theory, viz
from dpcore.distributions import heavy_tailed as distributions
from dpcore.estimators import heavy_tailed_mean as truncation
from dpcore.estimators import truncated_mle
from dpcore.experiments import fit_power_law, load_or_run
from dpcore.lessons import truncation as truncation_lesson

MOMENTS = ("2", "2.5", "3", "4", "6", "10", "inf")
N_GRID = (100, 300, 1000, 3000, 10_000, 30_000, 100_000)
MEAN_RANGE = 1000.0  # public bound R on |mean| (KSU20): the naive window is [-R, R]
BIAS_N_GRID = (1000, 2000, 4000, 8000, 16_000, 32_000)
BIAS_EPSILONS = (0.25, 0.5, 1.0, 2.0, 4.0)
TRUE_MEAN, WARM_START, SURVIVAL_RADIUS, DELTA = 0.8, 0.0, 1.5, 1e-6  # algorithms.md §1.7, 1-D instance
SWEEP_BUDGET = 400_000  # random draws per grid point: many trials at small n, at least 20 at large n

SPECS = [
    ui.epsilon_spec(default=1.0, low=0.01, high=5.0),
    ui.ParamSpec(key="k", label="Bounded moment order k", kind="choice", default="3", options=MOMENTS,
                 help="The data have E|X − μ|^k = 1. Smaller k = heavier tails; inf = Gaussian."),
    ui.ParamSpec(key="family", label="Distribution", kind="choice", default="lomax", options=distributions.FAMILIES,
                 help="Lomax and the two-point law are asymmetric, so clipping them is biased."),
    ui.n_spec(default=10_000, low=10, high=1_000_000),
    ui.ParamSpec(key="t", label="Clipping radius t (one run)", kind="log", default=2.0,
                 options=tuple(ui.log_grid(0.1, 100.0)), help="The window is [μ − t, μ + t] in the one-run view."),
    ui.trials_spec(default=200, low=20, high=2000),
    ui.seed_spec(),
]


def moment_order(label: str) -> float:
    return math.inf if label == "inf" else float(label)


def family_for(family: str, moment_k: float) -> str:
    """Only the Gaussian has every moment: k = inf always means the Gaussian."""
    return "gaussian" if math.isinf(moment_k) else family


def frame_label(moment_k: float) -> str:
    return "inf" if math.isinf(moment_k) else f"{moment_k:g}"


def law(family: str, moment_label: str):
    moment_k = moment_order(moment_label)
    return distributions.heavy_tailed(family_for(family, moment_k), moment_k)


@st.cache_resource(max_entries=64, show_spinner=False)
def one_run(family: str, moment_label: str, n: int, radius: float, epsilon: float, seed: int, presentation: bool):
    """One sample, its clipping window μ ± t, the clipped and private means, and the exact bias–noise tradeoff."""
    dist = law(family, moment_label)
    sample_rng, noise_rng = np.random.default_rng(seed).spawn(2)
    sample = dist.sample(n, sample_rng)
    low, high = dist.mean - radius, dist.mean + radius
    released = truncation.clipped_laplace_mean(sample, epsilon, low, high, noise_rng)
    means = {"true mean": dist.mean, "clipped mean": float(np.clip(sample, low, high).mean()),
             "private estimate": float(released.estimate)}
    histogram = viz.figures.truncation.clipping_histogram(sample, low, high, means, presentation=presentation,
                                       title=f"{dist.family}, k = {moment_label}, n = {sample.size:,}, ε = {epsilon:g}")
    radii = np.geomspace(distributions.bulk_radius(dist.moment_k), 100.0, 80)
    curve = distributions.bias_noise_curve(dist, sample.size, epsilon, radii)
    best, best_mse = distributions.optimal_window(dist, sample.size, epsilon, radii=radii)
    top = float(np.max(curve["mse"]))
    terms = [viz.Series(name, radii, np.where(curve[key] > 0, curve[key], np.nan), kind="curve", color=color)
             for name, key, color in (("bias²", "bias_squared", viz.OKABE_ITO["vermillion"]),
                                      ("noise variance", "noise_variance", viz.OKABE_ITO["blue"]),
                                      ("sampling variance", "sampling_variance", viz.OKABE_ITO["sky blue"]),
                                      ("total MSE", "mse", viz.OKABE_ITO["black"]))]
    bound = viz.Series("bias² bound A_k² t^−2(k−1) (Lemma 3.1)", radii,
                       distributions.tail_bias_bound(dist.moment_k, radii) ** 2 if math.isfinite(dist.moment_k)
                       else np.full(radii.size, np.nan), kind="theory", color=viz.OKABE_ITO["vermillion"])
    markers = [viz.Series(f"best t = {best:.3g}", [best, best], [top * 1e-6, top], kind="baseline",
                          color=viz.OKABE_ITO["bluish green"]),
               viz.Series(f"your t = {radius:g}", [radius, radius], [top * 1e-6, top], kind="baseline",
                          color=viz.OKABE_ITO["reddish purple"])]
    tradeoff = viz.line_figure(terms + [bound] + markers, x_title="clipping radius t", y_title="squared error (exact)",
                               title="Narrow window: less noise, more bias", log_x=True, log_y=True,
                               presentation=presentation)
    numbers = dict(clipped=float(released.clipped_fraction), bias=float(dist.clipping_bias(dist.mean, radius)),
                   noise_sd=math.sqrt(2) * float(released.noise_scale), best=best, best_rmse=math.sqrt(best_mse))
    return histogram, tradeoff, numbers


PRECOMPUTED = ui.ASSETS / "precomputed"


@st.cache_data(max_entries=32, show_spinner="Simulating the estimators…")
def error_sweep(family: str, epsilon: float, budget: int, seed: int):
    return load_or_run(PRECOMPUTED, truncation_lesson.error_sweep, family=family,
                       moments=[moment_order(label) for label in MOMENTS], n_values=list(N_GRID), epsilon=epsilon,
                       budget=budget, seed=seed, mean_range=MEAN_RANGE)


@st.cache_data(max_entries=32, show_spinner="Simulating the bias corrections…")
def bias_sweep(trials: int, seed: int):
    return load_or_run(PRECOMPUTED, truncation_lesson.bias_correction_sweep, n_values=list(BIAS_N_GRID),
                       epsilons=list(BIAS_EPSILONS), delta=DELTA, true_mean=TRUE_MEAN, warm_start=WARM_START,
                       survival_radius=SURVIVAL_RADIUS, trials=trials, seed=seed)


def rate_curves(epsilon: float):
    """Theory companions of one k frame: the KSU20 rate and the lower-bound shape (constants omitted)."""
    def curves(moment_k: float):
        n = np.array(N_GRID, dtype=float)
        exponent = 1.0 if math.isinf(moment_k) else (moment_k - 1) / moment_k
        return [viz.theory_series("KSU20 estimator", n, theory.heavy_tailed_rate(n, epsilon, moment_k)),
                viz.theory_series("non-private", n, theory.nonprivate_mean_error(n)),
                viz.Series("lower bound (εn)^−(k−1)/k, shape", n, (epsilon * n) ** -exponent, kind="baseline",
                           color=viz.METHOD_COLORS["lower_bound"])]
    return curves


@st.cache_resource(max_entries=64, show_spinner=False)
def error_figure(family: str, epsilon: float, budget: int, seed: int, presentation: bool, moment_label: str):
    frames = viz.sweep_frames(error_sweep(family, epsilon, budget, seed), x="n", frame="moment_k",
                              fixed={"epsilon": epsilon}, theory=rate_curves(epsilon), label=frame_label)
    return viz.animated_sweep(frames, x_title="sample size n", y_title="|μ̂ − μ| (median, 10–90 % band)",
                              frame_title="moment order k", title=f"Error vs n, {family}, ε = {epsilon:g}",
                              presentation=presentation, start=moment_label)


def bias_theory(epsilon: float):
    """Companions: the naive estimate's exact bias, and the delta-method error of moment matching (§1.7)."""
    n = np.array(BIAS_N_GRID, dtype=float)
    naive_bias = abs(truncated_mle.truncated_mean_map(TRUE_MEAN, WARM_START, SURVIVAL_RADIUS) - TRUE_MEAN)
    step = 1e-5
    slope = (truncated_mle.truncated_mean_map(TRUE_MEAN + step, WARM_START, SURVIVAL_RADIUS)
             - truncated_mle.truncated_mean_map(TRUE_MEAN - step, WARM_START, SURVIVAL_RADIUS)) / (2 * step)
    bound = max(1.0, abs(TRUE_MEAN - WARM_START))
    sizes = np.array([truncated_mle.target_size(int(m), bound, SURVIVAL_RADIUS) for m in n])
    sigma = np.array([mechanisms.gaussian_sigma(2 * SURVIVAL_RADIUS / size, epsilon, DELTA) for size in sizes])
    matching = theory.HALF_NORMAL_MEDIAN * np.sqrt(slope / sizes + sigma**2) / slope
    return [viz.theory_series("naive truncated mean", n, np.full(n.size, naive_bias)),
            viz.theory_series("truncated MLE (moment matching)", n, matching)]


@st.cache_resource(max_entries=32, show_spinner=False)
def bias_figure(trials: int, seed: int, presentation: bool, epsilon_frame: float):
    frames = viz.sweep_frames(bias_sweep(trials, seed), x="n", frame="epsilon", theory=bias_theory)
    return viz.animated_sweep(frames, x_title="sample size n", y_title="|μ̂ − μ*| (median, 10–90 % band)",
                              frame_title="ε (each estimator is (ε, 10⁻⁶)-DP)",
                              title="Removing the truncation bias",
                              presentation=presentation, start=f"{epsilon_frame:g}")


def private_slope(result, moment_k: float) -> float:
    curve = result.curve("private part (bias + noise)", "n", moment_k=moment_k)
    return fit_power_law(curve["x"].astype(float), curve["median"])[0]


GO_DEEPER = r"""
**Clipped Laplace mean (T1).** Clip each point to [c − t, c + t], average, add Lap(2t/(εn)). Replace-one sensitivity
2t/n ⇒ **ε-DP** for a public window. Error: bias b(t) = E clip(X) − μ, noise sd 2√2·t/(εn).
Bias bound (KSU20 Lemma 3.1, tight form): if both ends are ≥ t from μ and E|X − μ|^k ≤ 1, |b(t)| ≤ A_k t^−(k−1) with
A_k = (k−1)^(k−1)/k^k. Balancing gives error ∝ (εn)^−(k−1)/k.

**KSU20 estimator (their Algorithms 1–2; Thm 3.5).** Split the sample in halves. On the first, a Laplace histogram over
buckets of width 2r tiling [−R − 2r, R + 2r] picks the heaviest bucket [a, b] (**ε-DP**, replace-one moves two counts);
the window is [a − 2r, b + 2r]. On the second half, the clipped Laplace mean with that window (**ε-DP**). Disjoint
halves ⇒ **ε-DP overall** (parallel composition). Rate n = O(1/α² + 1/(εα^{k/(k−1)}) + log R/ε); no ε-DP (or (ε, δ)-DP)
algorithm needs fewer than Ω(1/(εα^{k/(k−1)})) samples (Thm 3.8). Here: bucket constant 2 (the seed uses 10) and one
group (the seed's median of O(log 1/β) groups boosts the success probability for the proof; it costs accuracy in
practice); the Laplace histogram stands in for the Balcer–Vadhan histogram. zCDP and (ε, δ) variants: `dpcore.estimators.heavy_tailed_mean`.

**Truncate, then correct the bias (seed 003).** Keep points in the survival set S = [c − r, c + r] around a warm start c;
fix the size to N = ⌊0.8·a_min·n⌋ (trim or pad with c, shuffle: neighbours stay neighbours), so the truncated mean has
sensitivity 2r/N. *Naive:* release it with the analytic Gaussian mechanism — **(ε, δ)-DP**, but it estimates the
truncated mean, biased towards c. *Moment matching (T5b):* the truncated MLE solves E_{μ,S}[z] = x̄; solve it on the one
private release (post-processing) — **(ε, δ)-DP**. *DP gradient descent (T5a):* T = 10 full-batch gradient steps on the
truncated negative log-likelihood, each gradient E_{μ,S}[z] − x̄ released with Gaussian noise; exact Gaussian-DP
composition gives **(ε, δ)-DP**. The seed runs DP-SGD (one sample per step, ~N² steps, BST14 accounting); full-batch GD
with exact accounting is simpler and claims no amplification by subsampling.

**Sources.** Kamath, Singhal & Ullman, *Private mean estimation of heavy-tailed distributions* (COLT 2020: Lemma 3.1,
Algorithms 1–3, Theorems 3.5, 3.7, 3.8). *Private statistical estimation via truncation* (seed 003: Lemma 2.1, the
truncated-MLE approach). Formulas as implemented: `algorithms.md` §1.
"""


def naive_vs_ksu20(ksu20, naive, moment_label):
    """The first takeaway, worded by what the numbers on screen say."""
    ratio = naive[0] / ksu20[0]
    head = (f"- At n = {N_GRID[0]:,} and k = {moment_label} the naive window [−R, R]'s median error is {naive[0]:.2g}, "
            f"the KSU20 estimator's {ksu20[0]:.2g}")
    if ratio >= 2:
        return (head + f" ({ratio:.0f}× smaller): finding the window privately is what makes clipping pay, because the "
                f"naive window's noise grows with the public bound R = {MEAN_RANGE:g}. By n = {N_GRID[-1]:,} the gap is "
                f"{naive[-1] / ksu20[-1]:.1f}×: the naive noise ∝ R/(εn) has shrunk to the size of the sampling error.")
    return (head + ": here the private window does not pay — its clipping bias (this law's far mass is cut) costs as "
            "much as the naive window's noise.")


def slope_takeaway(slope, theory_slope, family_name):
    if family_name in ("gaussian", "student-t"):
        return (f"- The private part falls like n^{slope:.2f}: this law is symmetric, so a window centred on the mean "
                "has no bias and the private part is pure Laplace noise ∝ 1/(εn). Pick Lomax or the two-point law to "
                f"see the bias–noise rate (theory, worst case over the class: n^{theory_slope:.2f}).")
    return (f"- The private part falls like n^{slope:.2f} (theory, worst case over the class: n^{theory_slope:.2f}): "
            "heavier tails (smaller k) make privacy's share of the error fall more slowly, while the non-private "
            "error is 1/√n for every k.")


def snippet(family, epsilon, budget, seed):
    return f'''"""Reproduce the truncation page's error-vs-n figure in a notebook."""
import math

from dpcore import viz
from dpcore.lessons import truncation as truncation_lesson

result = truncation_lesson.error_sweep({family!r}, [2, 2.5, 3, 4, 6, 10, math.inf], {list(N_GRID)}, {epsilon!r},
                                budget={budget}, seed={seed}, mean_range={MEAN_RANGE})
print(result.to_csv()[:400])
fig = viz.animated_sweep(viz.sweep_frames(result, x="n", frame="moment_k"), x_title="n", y_title="|error|",
                         frame_title="k")
fig.show()
'''


ui.setup_page("Truncation bias", "✂️")
params = ui.controls(SPECS)
epsilon, moment_label, family, n = params["eps"], params["k"], params["family"], params["n"]
radius, trials, seed = params["t"], params["trials"], params["seed"]
moment_k = moment_order(moment_label)
present = ui.presentation_mode()
budget = SWEEP_BUDGET * trials // 200

ui.prose(
    "A mean has unbounded sensitivity: one person with a huge value moves it arbitrarily far. **Clipping** every "
    "value to a window [c − t, c + t] bounds the sensitivity by 2t/n, so Laplace noise of scale 2t/(εn) suffices — "
    "but clipping moves the mean: a **bias**. A narrow window means little noise and much bias; a wide one the reverse. "
    "If the data have a bounded k-th moment E|X − μ|^k ≤ 1, the best window gives"
)
ui.formula(r"|\hat\mu - \mu| \;\approx\; \frac{1}{\sqrt n} \;+\; \Big(\frac{1}{\varepsilon n}\Big)^{\frac{k-1}{k}}")
ui.prose("…and no private algorithm can do better (KSU20). Without privacy the error is 1/√n whatever k is; with "
         "privacy, heavier tails (smaller k) cost more.")

with ui.guard():
    st.subheader("One run: where to clip")
    ui.prose("The window is centred on the true mean here (as if the private range step had found it exactly); drag "
             "the radius t in the sidebar. Red bars are the points clipping moves to the window's edge.")
    histogram, tradeoff, numbers = one_run(family, moment_label, n, radius, epsilon, seed, present)
    ui.plotly(histogram, key="clipping_histogram")
    st.caption(f"Window radius t = {radius:g}: {100 * numbers['clipped']:.2f} % of points clipped, bias "
               f"{numbers['bias']:+.4f}, privacy noise sd {numbers['noise_sd']:.4f}. The best radius for this "
               f"distribution is t = {numbers['best']:.3g} (root MSE {numbers['best_rmse']:.4f}).")
    ui.plotly(tradeoff, key="bias_noise_tradeoff")

    st.subheader("Error vs n, one frame per moment order k")
    ui.prose("Median |error| over the trials with its 10–90 % band. *KSU20 estimator*: finds the window privately "
             f"(histogram of buckets) knowing only |μ| ≤ R = {MEAN_RANGE:g}. *Naive*: the window [−R, R]. *Private part*: "
             "bias + noise of the best window (centred on the true mean), the term whose slope is −(k−1)/k. Dashed: "
             "the rates (constants omitted); dotted: the lower bound's shape.")
    result = error_sweep(family, epsilon, budget, seed)
    ui.animated(error_figure(family, epsilon, budget, seed, present, moment_label), key="error_vs_n")
    slope = private_slope(result, moment_k)
    theory_slope = -1.0 if math.isinf(moment_k) else -(moment_k - 1) / moment_k
    at_n = result.curve("KSU20 estimator", "n", moment_k=moment_k)["median"]
    naive_n = result.curve("naive", "n", moment_k=moment_k)["median"]
    st.markdown(f"Measured log–log slope of the private part at k = {moment_label}: **{slope:.2f}**; "
                f"theory −(k−1)/k = **{theory_slope:.2f}**, the worst case over all laws with this moment bound."
                + ("" if abs(slope - theory_slope) <= 0.1 else
                   " This law falls faster: a fixed distribution's tail is usually lighter than the worst case, "
                   "which changes with n (KSU20's lower bound uses a two-point law whose far atom moves out as n "
                   "grows; a fixed two-point law's bias vanishes once the window covers its atom)."))

    st.subheader("Taking the bias back: truncated maximum likelihood")
    ui.prose(
        "Gaussian data with mean μ* = 0.8, truncated to the survival set [−1.5, 1.5] around a warm start 0. The naive "
        "private truncated mean estimates the *truncated* mean, 0.42, whatever n is. The truncated MLE knows how "
        "truncation moves a Gaussian's mean and inverts it: privately by moment matching on one release, or by "
        "private gradient descent. All three spend the same (ε, 10⁻⁶)."
    )
    bias_result = bias_sweep(trials, seed)
    epsilon_frame = min(BIAS_EPSILONS, key=lambda frame: abs(math.log(frame / epsilon)))
    ui.animated(bias_figure(trials, seed, present, epsilon_frame), key="bias_correction")
    st.markdown(
        "Privacy spent, each (ε, 10⁻⁶)-DP under replace-one: **naive** and **moment matching** — one analytic-Gaussian "
        "release of the fixed-size truncated mean (sensitivity 2r/N), moment matching being post-processing; "
        "**DP gradient descent** — T = 10 Gaussian gradient releases whose exact Gaussian-DP composition is (ε, 10⁻⁶).")
    naive_error = bias_result.curve("naive truncated mean", "n", epsilon=epsilon_frame)["median"][-1]
    matched_error = bias_result.curve("truncated MLE (moment matching)", "n", epsilon=epsilon_frame)["median"][-1]

    st.subheader("What to notice")
    st.markdown("\n".join([
        naive_vs_ksu20(at_n, naive_n, moment_label),
        slope_takeaway(slope, theory_slope, family_for(family, moment_k)),
        f"- The best clipping radius for this sample size is t = {numbers['best']:.3g}; at t = {radius:g} the bias is "
        f"{numbers['bias']:+.4f} and the noise sd {numbers['noise_sd']:.4f}.",
        f"- At n = {BIAS_N_GRID[-1]:,}, ε = {epsilon_frame:g}: naive truncated mean error {naive_error:.3f}, moment "
        f"matching {matched_error:.4f} — {naive_error / matched_error:.0f}× smaller for the same privacy.",
    ]))

    with st.expander("Go deeper: algorithms, guarantees, references, downloads"):
        st.markdown(GO_DEEPER)
        ui.downloads(error_figure(family, epsilon, budget, seed, present, moment_label), name="truncation_error_vs_n",
                     snippet=snippet(family, epsilon, budget, seed))
