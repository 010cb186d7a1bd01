"""Exponential-mechanism sampling: from an election to the sum-of-squares score (seeds 001, 002, 004)."""

import math

import numpy as np
import streamlit as st

import ui
from dpcore import mechanisms, theory, viz
from dpcore.estimators import sdp, user_level
from dpcore.experiments import load_or_run
from dpcore.lessons import exponential_mechanism as exponential_mechanism_lesson

ITERATIVE = exponential_mechanism_lesson.ITERATIVE_DEFAULTS

VOTES = np.array([15.0, 19.0, 20.0])  # seed 001's election
CANDIDATES = ("A", "B", "C")
ELECTION_DRAWS = 1000
ELECTION_EPSILONS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
CONVENTION_COLORS = (viz.OKABE_ITO["blue"], viz.OKABE_ITO["orange"])
CONVENTIONS = {
    "factor 2: exp(εu/2Δ)": False,
    "monotone: exp(εu/Δ)": True,
}

CANDIDATE_COUNTS = (2, 5, 10, 30, 100, 300, 1000)
SELECTION_EPSILONS = (0.3, 1.0, 3.0)
MEDIAN_N = (10, 30, 100, 300, 1000, 3000)
MEDIAN_EPSILONS = (0.1, 0.3, 1.0, 3.0, 10.0)
MEDIAN_SD = 0.1  # data N(0.3, 0.1²) on the public interval [0, 1]
PER_USER = (1, 2, 5, 10, 20, 50, 100)
USER_EPSILONS = (0.05, 0.1, 0.2, 0.5)
USERS = 200
PRECOMPUTED = ui.ASSETS / "precomputed"

SPECS = [
    ui.epsilon_spec(default=0.1, low=0.01, high=10.0),
    ui.n_spec(default=100, low=10, high=3000),
    ui.trials_spec(default=200, low=50, high=2000),
    ui.seed_spec(),
]


GO_DEEPER = r"""
**Exponential mechanism** (McSherry & Talwar 2007). Candidates H, a score u(X, h) whose value moves by at most Δ when
one row (or one user) is replaced. Output h with probability ∝ exp(ε u(X, h)/(2Δ)): **ε-DP**. Utility (seed 004,
Dwork–Roth Thm 3.11): P[u(ĥ) ≤ OPT − (2Δ/ε)(ln |H| + t)] ≤ e^−t. *Monotone* scores (all move the same way
between neighbours, e.g. vote counts under add/remove-one) allow exp(ε u/Δ) — seed 001's election; otherwise that
choice is only 2ε-DP (the audit in the test suite catches it). Sampling here: Gumbel-max or inverse CDF in log
space (never exponentiating raw scores). Report-noisy-max (Laplace noise of scale 2Δ/ε) and permute-and-flip
(McKenna & Sheldon 2020) are ε-DP too.

**Private median / quantile** (exact continuous exponential mechanism). Clip to the public [a, b], sort; on the
interval between the i-th and (i+1)-th points the score is −|i − qn| (sensitivity 1). Pick interval i with
probability ∝ length × exp(ε u_i/2), then a uniform point in it: **ε-DP** under replace-one.

**User-level privacy** (seed 002, §4). n users × m examples; neighbours replace a whole user. The group-privacy score
Σ_i e_i(t) has user sensitivity m; the clipped score Σ_i min(1, e_i(t)) has sensitivity 1, so the same ε buys m
times less noise in score units, and a threshold with error α is wrong on about n(1 − (1 − α)^m) users instead of
n·m·α examples. **ε user-level DP** for both (Δ = m, resp. 1).

**Why the exponential mechanism was slow for means** (seed 001): the candidate set of a d-dimensional mean is a
cover of size exponential in d, and good scores (Tukey depth) are hard to compute. HKM22 replace the score by an
SDP relaxation over directions (concave, so sampling is log-concave and efficient).

**Sources.** Hopkins, Kamath & Majid (STOC 2022) via Kamath's slides (seed 001); Ghazi et al., *User-level
differential privacy with few examples per user* (seed 002); Kamath, Singhal & Ullman (COLT 2020, seed 004);
McKenna & Sheldon, *Permute-and-flip* (NeurIPS 2020). Formulas as implemented: `algorithms.md` §0.6 and §5.
"""

SNIPPET = '''"""Reproduce the private-median figure of the exponential-mechanism page in a notebook."""
from dpcore import viz
from dpcore.lessons import exponential_mechanism as exponential_mechanism_lesson

result = exponential_mechanism_lesson.quantile_error_sweep([10, 30, 100, 300, 1000, 3000], [0.1, 0.3, 1.0, 3.0, 10.0],
                                      trials={trials}, seed={seed})
print(result.to_csv()[:400])
fig = viz.animated_sweep(viz.sweep_frames(result, x="n", frame="epsilon"), x_title="n",
                         y_title="|private median - median|", frame_title="epsilon")
fig.show()
'''



@st.cache_data(max_entries=32, show_spinner="Simulating selections…")
def loss_sweep(trials: int, seed: int):
    return load_or_run(PRECOMPUTED, exponential_mechanism_lesson.selection_loss_sweep, candidate_counts=list(CANDIDATE_COUNTS),
                       epsilons=list(SELECTION_EPSILONS), draws=10 * trials, seed=seed, design="adversarial")


@st.cache_resource(max_entries=32, show_spinner=False)
def loss_figure(trials: int, seed: int, presentation: bool, epsilon_frame: float):
    def bound(epsilon):
        k = np.array(CANDIDATE_COUNTS, dtype=float)
        gap = 2 * np.log(k) / epsilon
        return [viz.theory_series("exponential mechanism", k, gap * (k - 1) / (2 * k - 1)),
                viz.Series("90 % bound (2/ε)(ln k + ln 10)", k,
                           theory.exponential_mechanism_loss_bound(k, epsilon, t=math.log(10)), kind="baseline",
                           color=viz.METHOD_COLORS["lower_bound"])]
    frames = viz.sweep_frames(loss_sweep(trials, seed), x="k", frame="epsilon", statistic="mean", theory=bound)
    return viz.animated_sweep(frames, x_title="number of candidates k", y_title="score lost OPT − u(ĥ) (mean, 10–90 %)",
                              frame_title="ε", title="The price of choosing among k candidates",
                              log_y=False, presentation=presentation, start=f"{epsilon_frame:g}")


@st.cache_data(max_entries=32, show_spinner="Simulating private medians…")
def median_sweep(trials: int, seed: int):
    return load_or_run(PRECOMPUTED, exponential_mechanism_lesson.quantile_error_sweep, n_values=list(MEDIAN_N),
                       epsilons=list(MEDIAN_EPSILONS), trials=trials, seed=seed)


@st.cache_resource(max_entries=32, show_spinner=False)
def median_figure(trials: int, seed: int, presentation: bool, epsilon_frame: float):
    density_at_median = 1.0 / (MEDIAN_SD * math.sqrt(2.0 * math.pi))

    def companions(epsilon):
        n = np.array(MEDIAN_N, dtype=float)
        rank_loss = theory.exponential_mechanism_loss_bound(n + 1, epsilon, t=math.log(2))  # median-level t
        return [viz.theory_series("exponential mechanism", n, rank_loss / (n * density_at_median)),
                viz.theory_series("non-private", n, theory.HALF_NORMAL_MEDIAN * math.sqrt(math.pi / 2) * MEDIAN_SD
                                  / np.sqrt(n))]
    frames = viz.sweep_frames(median_sweep(trials, seed), x="n", frame="epsilon", theory=companions)
    return viz.animated_sweep(frames, x_title="sample size n", y_title="|private median − median| (median, 10–90 %)",
                              frame_title="ε", title="The private median", presentation=presentation,
                              start=f"{epsilon_frame:g}")


@st.cache_resource(max_entries=32, show_spinner=False)
def median_run(n: int, epsilon: float, seed: int, presentation: bool):
    """One dataset: the rank score on each interval, the exact sampling density, and 1,000 draws."""
    data_rng, draw_rng = np.random.default_rng(seed).spawn(2)
    x = np.clip(0.3 + MEDIAN_SD * data_rng.standard_normal(n), 0.0, 1.0)
    law = mechanisms.quantile_density(x, 0.5, epsilon, 0.0, 1.0)
    draws = mechanisms.private_quantile(np.broadcast_to(x, (ELECTION_DRAWS, n)), 0.5, epsilon, 0.0, 1.0, draw_rng)
    steps_x = np.repeat(law["edges"], 2)[1:-1]
    # Bins over the draws' own central range, fine enough to resolve the density's peak at large ε.
    counts, edges = np.histogram(draws, bins=40, range=tuple(np.quantile(draws, [0.005, 0.995])))
    centres = (edges[:-1] + edges[1:]) / 2
    density = viz.line_figure([
        viz.Series("exact sampling density", steps_x, np.repeat(law["density"], 2), kind="curve",
                   color=viz.method_color("exponential mechanism")),
        viz.Series(f"{ELECTION_DRAWS:,} draws (histogram)", centres, counts / (ELECTION_DRAWS * (edges[1] - edges[0])),
                   kind="baseline", color=viz.OKABE_ITO["black"]),
    ], x_title="released value", y_title="density", title=f"Private median of n = {n} points, ε = {epsilon:g}",
        presentation=presentation)
    score = viz.line_figure([viz.Series("rank score −|i − n/2|", steps_x, np.repeat(law["scores"], 2), kind="curve",
                                        color=viz.OKABE_ITO["blue"])],
                            x_title="released value", y_title="score of its interval", title="The rank score",
                            presentation=presentation)
    return score, density, float(np.median(x)), draws


@st.cache_resource(max_entries=8, show_spinner="Solving the sum-of-squares (SDP) scores… (a few seconds, once)")
def sum_of_squares(seed: int, presentation: bool):
    """The iterative estimator of §5.4 (c) at its stated defaults: direction disks and the path to the mean."""
    defaults = ITERATIVE
    data_rng, mechanism_rng = np.random.default_rng(seed).spawn(2)
    true_mean = np.asarray(defaults["true_offset"])
    points = true_mean + data_rng.standard_normal((defaults["n"], 2))
    run = sdp.iterative_mean_2d(points, defaults["epsilon"], buckets=defaults["buckets"], steps=defaults["steps"],
                                radius=defaults["radius"], max_step=defaults["max_step"], rng=mechanism_rng)
    grid = sdp.polar_score_grid(sdp.bucket_means(points, defaults["buckets"]), run.trajectory[0], defaults["radius"])
    first = run.directions[0]
    disk = viz.figures.exponential_mechanism.direction_disk(grid["radius"], grid["angle"], run.scores[0],
                              {"direction to the true mean": math.atan2(*(true_mean - run.trajectory[0])[::-1]),
                               "sampled direction (round 1)": math.atan2(first[1], first[0])},
                              title="SDP score of each direction y (|y| ≤ 1), round 1", presentation=presentation)
    path = viz.figures.exponential_mechanism.trajectory_figure(sdp.bucket_means(points, defaults["buckets"]), run.trajectory, true_mean,
                                 title=f"Find a direction, take a step: error {np.linalg.norm(run.estimate - true_mean):.2f}",
                                 presentation=presentation)
    return disk, path, run, float(np.linalg.norm(run.estimate - true_mean))


@st.cache_data(max_entries=32, show_spinner="Simulating users…")
def user_sweep(epsilon: float, trials: int, seed: int):
    return load_or_run(PRECOMPUTED, exponential_mechanism_lesson.user_level_sweep, per_user_values=list(PER_USER), users=USERS,
                       epsilon=epsilon, trials=trials, seed=seed)


@st.cache_resource(max_entries=32, show_spinner=False)
def user_figure(trials: int, seed: int, presentation: bool, epsilon_frame: float):
    frames = []
    for epsilon in USER_EPSILONS:
        result = user_sweep(epsilon, trials, seed)
        frames.append(viz.FrameData(f"{epsilon:g}", [
            viz.Series(method, np.array(PER_USER, dtype=float), *(result.curve(method, "per_user")[key]
                                                                   for key in ("mean", "lower", "upper")))
            for method in result.methods]))
    return viz.animated_sweep(frames, x_title="examples per user m", y_title="|t̂ − θ*| (mean, 10–90 % band)",
                              frame_title="ε (user-level)", title=f"Choosing a threshold from {USERS} users",
                              log_y=False, presentation=presentation, start=f"{epsilon_frame:g}")


@st.cache_resource(max_entries=64, show_spinner=False)
def election_figures(epsilon: float, seed: int, presentation: bool):
    """Exact probabilities under both conventions, 1,000 draws, and the probabilities as ε sweeps."""
    exact = {name: mechanisms.exponential_probabilities(VOTES, epsilon, monotonic=monotonic)
             for name, monotonic in CONVENTIONS.items()}
    draws = mechanisms.exponential(VOTES, epsilon, rng=seed, size=ELECTION_DRAWS)
    sampled = np.bincount(draws, minlength=VOTES.size) / ELECTION_DRAWS
    bars = viz.figures.common.bar_figure(list(CANDIDATES), {"votes ÷ total": VOTES / VOTES.sum(), **exact,
                                   f"{ELECTION_DRAWS:,} draws (factor 2)": sampled},
                          colors=("#BBBBBB", *CONVENTION_COLORS, viz.OKABE_ITO["bluish green"]),
                          x_title="candidate (A: 15 votes, B: 19, C: 20)", y_title="P(announced)",
                          title=f"Who wins a private election at ε = {epsilon:g}?", presentation=presentation)
    frames = [viz.FrameData(f"{eps:g}", [
        viz.Series(name, VOTES, mechanisms.exponential_probabilities(VOTES, eps, monotonic=monotonic), color=color)
        for (name, monotonic), color in zip(CONVENTIONS.items(), CONVENTION_COLORS)]) for eps in ELECTION_EPSILONS]
    start = ui.nearest(ELECTION_EPSILONS, epsilon)
    sweep = viz.animated_sweep(frames, x_title="votes u(h)", y_title="P(h announced)", frame_title="ε",
                               title="Selection probabilities as ε grows", log_x=False, log_y=False,
                               presentation=presentation, start=f"{start:g}")
    return bars, sweep, exact, sampled


ui.setup_page("Exponential mechanism", "∝")
params = ui.controls(SPECS)
epsilon, n, trials, seed = params["eps"], params["n"], params["trials"], params["seed"]
present = ui.presentation_mode()

ui.prose(
    "To *choose* privately — a winner, a threshold, a median, a direction — score every candidate on the data and "
    "sample one with probability growing exponentially in its score. If one person changes any score by at most Δ, "
    "the choice is ε-DP, whatever the set of candidates; and it loses little score: with probability 1 − e^−t, at "
    "most (2Δ/ε)(ln k + t) below the best of k candidates."
)
ui.formula(r"P(h) \;\propto\; \exp\!\Big(\frac{\varepsilon\,u(X,h)}{2\Delta}\Big)"
           r"\qquad u(\hat h) \;\ge\; \mathrm{OPT} - \frac{2\Delta}{\varepsilon}\,(\ln k + t)\ \text{ w.p. } 1 - e^{-t}")

with ui.guard():
    st.subheader("An election (seed 001)")
    ui.prose(
        "Three candidates with 15, 19 and 20 votes. One voter changes one count by 1 (Δ = 1). Under add/remove-one "
        "voter the counts are *monotone* (they all move the same way), and exp(ε·u) is ε-DP — the slides' 24 % / 36 % "
        "/ 40 % at ε = 0.1. For scores that can move in opposite directions (replace-one, or most scores), the factor "
        "2 is needed: exp(ε·u/2)."
    )
    bars, sweep, exact, sampled = election_figures(epsilon, seed, present)
    ui.plotly(bars, key="election")
    ui.animated(sweep, key="election_vs_epsilon")

    st.subheader("User-level privacy: clip each user's score (seed 002)")
    ui.prose(
        f"{USERS} users each hold m labelled examples; we pick a threshold classifier among 101. Protecting a whole "
        "user means one user may change all m examples. *Group privacy* counts errors over all examples, so one user "
        "moves the score by m and the noise must grow with m. *Clipping* counts, per user, only whether the threshold "
        "errs on them at all — sensitivity 1 whatever m — and more examples per user then make good thresholds stand "
        "out. *One example per user* throws the rest away."
    )
    ui.animated(user_figure(trials, seed, present, ui.nearest(USER_EPSILONS, epsilon)), key="user_level")
    factor = user_level.savings_factor(0.05, 20)
    st.caption(f"Bound (algorithms.md §5.5): clipping needs about (1 − (1 − α)^m)/α fewer users than group privacy — "
               f"{factor:.2f}× at α = 0.05, m = 20. The simulation shows the direction; the bound is conservative.")

    st.subheader("The price of many candidates: ln k")
    ui.prose(
        "One candidate is ahead of k − 1 others by (2/ε) ln k — the gap at which the exponential mechanism picks it "
        "only half of the time, because the others, together, weigh as much. The score lost then grows like ln k / ε: "
        "privately choosing among many costs only logarithmically in their number. Report-noisy-max and "
        "permute-and-flip are ε-DP selectors of the same kind; permute-and-flip never loses more in expectation. "
        "Dashed: the exact expected loss of the exponential mechanism; dotted: the 90 % bound (2/ε)(ln k + ln 10)."
    )
    ui.animated(loss_figure(trials, seed, present, ui.nearest(SELECTION_EPSILONS, epsilon)), key="loss_vs_k")

    st.subheader("A continuous output: the private median")
    ui.prose(
        "Candidates are all numbers in the public interval [0, 1]. Between consecutive data points the rank score "
        "−|i − n/2| is constant, so the exponential mechanism picks an interval with probability ∝ length × "
        "exp(ε·score/2) and a uniform point inside: exact sampling, ε-DP (one point moves every rank by at most 1)."
    )
    score, density, sample_median, draws = median_run(n, epsilon, seed, present)
    ui.plotly(score, key="median_score")
    ui.plotly(density, key="median_density")
    st.caption(f"Sample median {sample_median:.4f}; the {ELECTION_DRAWS:,} private medians have mean {draws.mean():.4f} "
               f"and standard deviation {draws.std():.4f}.")
    ui.animated(median_figure(trials, seed, present, ui.nearest(MEDIAN_EPSILONS, epsilon)), key="median_vs_n")

    st.subheader("Sum-of-squares: a score over directions (seed 001, HKM22)")
    ui.prose(
        "For a d-dimensional mean the candidates form a cover exponential in d. HKM22 instead score *directions*: "
        "split the data into B buckets, and count how many bucket means lie at least r beyond the current estimate "
        "along direction v — relaxed to a semidefinite program whose value is concave in v, so the exponential "
        "mechanism over directions samples a log-concave density. Here, in 2-D: pick a direction with the exponential "
        "mechanism over a polar grid of SDP values, pick a step with a private median of the projections, repeat "
        f"{ITERATIVE['steps']} times (ε = {ITERATIVE['epsilon']:g} split over the "
        f"{2 * ITERATIVE['steps']} choices). A teaching substitute: HKM22's own score, step rule and "
        "sampler differ."
    )
    if st.toggle("Solve the SDP scores (≈ 120 semidefinite programs per round; a few seconds the first time)",
                 key="sdp_toggle"):
        disk, path, run, error = sum_of_squares(seed, present)
        ui.plotly(disk, key="sdp_disk")
        ui.plotly(path, key="sdp_path")
        st.caption(f"Error after {len(run.steps)} rounds: {error:.2f} (stated: ≤ {exponential_mechanism_lesson.ITERATIVE_DEFAULT_ERROR:g} in "
                   f"about 90 % of runs at n = {ITERATIVE['n']:,}). {run.guarantee}")

    st.subheader("What to notice")
    standard, monotone = exact.values()
    loss = loss_sweep(trials, seed)
    frame_epsilon = ui.nearest(SELECTION_EPSILONS, epsilon)
    em_loss = loss.curve("exponential mechanism", "k", epsilon=frame_epsilon)["mean"]
    pf_loss = loss.curve("permute-and-flip", "k", epsilon=frame_epsilon)["mean"]
    users = user_sweep(ui.nearest(USER_EPSILONS, epsilon), trials, seed)
    clipped = users.curve("clipped (user-level)", "per_user")["mean"]
    group = users.curve("group privacy", "per_user")["mean"]
    st.markdown("\n".join([
        f"- At ε = {epsilon:g} the leader C is announced with probability {standard[2]:.3f} with the factor 2 and "
        f"{monotone[2]:.3f} without it; {ELECTION_DRAWS:,} draws gave {sampled[2]:.3f}. As ε → 0 every candidate "
        "tends to 1/3: privacy hides who won.",
        f"- Going from k = {CANDIDATE_COUNTS[0]} to k = {CANDIDATE_COUNTS[-1]:,} candidates (ε = {frame_epsilon:g}) the "
        f"exponential mechanism's mean loss grows from {em_loss[0]:.2f} to {em_loss[-1]:.2f} — like ln k, not k; "
        f"permute-and-flip loses {pf_loss[-1]:.2f} at k = {CANDIDATE_COUNTS[-1]:,}.",
        f"- With m = {PER_USER[-1]} examples per user (ε = {ui.nearest(USER_EPSILONS, epsilon):g}), clipping each user's "
        f"score gives mean error {clipped[-1]:.3f} against {group[-1]:.3f} for group privacy: bounding each user's "
        "influence beats paying for it.",
        f"- The private median's {ELECTION_DRAWS:,} draws spread {draws.std():.3f} around the sample median "
        f"{sample_median:.3f} at n = {n}, ε = {epsilon:g}.",
    ]))

    with st.expander("Go deeper: algorithms, guarantees, references, downloads"):
        st.markdown(GO_DEEPER)
        ui.downloads(median_figure(trials, seed, present, ui.nearest(MEDIAN_EPSILONS, epsilon)), name="private_median",
                     snippet=SNIPPET.format(trials=trials, seed=seed))
