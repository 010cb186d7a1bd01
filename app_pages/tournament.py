"""Tournament (Scheffé) hypothesis selection, item- and user-level (seeds 002, 004; BKSW19; algorithms.md §4)."""

import math

import numpy as np
import streamlit as st

import ui
from dpcore import viz
from dpcore.estimators import selection
from dpcore.experiments import fit_power_law, load_or_run, samples_needed
from dpcore.lessons import tournament as tournament_lesson

N_GRID = (30, 100, 300, 1000, 3000, 10_000)
K_GRID = (21, 41, 81, 161, 321)
EPSILON_FRAMES = (0.03, 0.1, 0.3, 1.0)
USER_N = (10, 30, 100, 300, 1000)
PER_USER = (1, 4, 16, 64, 256)
USER_EPSILONS = (0.05, 0.1, 0.2, 0.5)
USER_TRIALS = 40
TRUTH = (0.33, 1.0)
TARGET_TV = 0.1
ALPHA = 0.05
BETA = 0.1
MEANS = tuple(round(v, 1) for v in np.arange(-2.0, 2.01, 0.1))
COVER_AXIS = np.arange(-3, 4) * 0.25  # KSU20 section: a public 7 x 7 cover of spacing 0.25
PLANE_MEAN = (0.2, -0.1)
PLANE_N = 600
PRECOMPUTED = ui.ASSETS / "precomputed"

SPECS = [
    ui.epsilon_spec(default=0.1, low=0.01, high=5.0),
    ui.n_spec(default=300, low=30, high=10_000),
    ui.ParamSpec(key="k", label="Hypotheses k", kind="choice", default=41, options=K_GRID,
                 help="Unit-variance Gaussians N(μ, 1) with means 0.1 apart, centred on 0 (k = 41: μ ∈ [−2, 2])."),
    ui.ParamSpec(key="a", label="Contest: H_i's mean", kind="choice", default=0.3, options=MEANS,
                 help="The pair whose Scheffé set is drawn."),
    ui.ParamSpec(key="b", label="Contest: H_j's mean", kind="choice", default=0.8, options=MEANS),
    ui.ParamSpec(key="m", label="Examples per user m", kind="choice", default=16, options=PER_USER,
                 help="User-level section: each user holds m examples; neighbours differ in one whole user."),
    ui.trials_spec(default=100, low=20, high=500),
    ui.seed_spec(),
]

GO_DEEPER = r"""
**Scheffé contest.** For hypotheses Hᵢ, Hⱼ with densities hᵢ, hⱼ: W = {x : hᵢ(x) > hⱼ(x)}, p₁ = Hᵢ(W), p₂ = Hⱼ(W),
d_TV(Hᵢ, Hⱼ) = p₁ − p₂. The data's share τ̂ of points in W decides: Hᵢ wins if |p₁ − τ̂| < |p₂ − τ̂|. For two
N(μ, 1) the set is the half-line beyond the midpoint, p₁ = Φ(D/2), p₂ = Φ(−D/2), D = |μᵢ − μⱼ|; all k(k−1)/2 contests
come from one sort of the data and a binary search per distinct midpoint.

**Private score (sensitivity 1).** ζ = 1.5α, κ = 4α. Γ(Hᵢ, Hⱼ) = n if p₁ − p₂ ≤ κ, else n·max{0, τ̂ − p₂ − ζ}: the number
of points that must change before Hᵢ loses (τ̂ falls to p₂ + ζ). S(Hᵢ) = minⱼ Γ(Hᵢ, Hⱼ).
*Why sensitivity 1:* replacing one point moves each τ̂ by at most 1/n, so each Γ by at most 1 (max{0, ·} is
1-Lipschitz), and a minimum of functions that each move by at most 1 moves by at most 1.
Output Hᵢ with probability ∝ exp(ε S(Hᵢ)/2): **ε-DP** (exponential mechanism, replace-one neighbours).
*Utility* (our constants, algorithms.md §4.2): if OPT ≤ α and n ≥ max{2 ln(k²/β)/α², 2 ln(k/β)/(εα)}, then
d_TV(P, Ĥ) ≤ 5α with probability ≥ 1 − 2β. Hoeffding over the k² sets keeps |τ̂ − P(W)| ≤ α/2; the best hypothesis
scores ≥ nα; any hypothesis farther than 5α loses to it with margin, so scores 0; the mechanism picks a zero score with
probability ≤ k e^(−εnα/2). BKSW19's rate is O(log k/α² + log k/(αε)): privacy costs log k, not k.

**User level** (seed 002, App. E). n users × m examples; neighbours replace one user's m examples. Per user and contest,
cᵤ = (its points in W) − m(p₂ + ζ), clipped to [−τ, τ]; Γᵘ = max{0, Σᵤ clip(cᵤ)} (n·min(τ, m) for close pairs).
One user moves Γᵘ by at most Δᵤ = min(m, 2τ); EM with exp(ε Sᵘ/(2Δᵤ)) is **ε user-level DP** for any τ fixed in advance.
τ = √m (a user's typical deviation) keeps the signal and cuts the sensitivity from m to 2√m; τ = ∞ is group privacy
(Δ = m), whose privacy cost in users does not improve with m. Seed 002's user complexity has the form
Õ(log k/(mα²) + log k/(εα√m) + log k/ε). "Item-level on all n·m" is shown for contrast only: it protects single
examples, not users.

**Sources.** Bun, Kamath, Steinke & Wu, *Private hypothesis selection* (NeurIPS 2019); Ghazi, Kamath, Kumar, Leeman,
Manurangsi, Varadarajan & Zhang, *User-level differential privacy with few examples per user* (seed 002); Kamath,
Singhal & Ullman (COLT 2020, seed 004: the pure-DP tournament for means); Devroye & Lugosi, *Combinatorial methods
in density estimation* (Scheffé tournaments, minimum-distance estimate). Constants are ours (algorithms.md §4), not
BKSW19's.
"""

SNIPPET = '''"""Reproduce the tournament page's 'TV vs n' figure in a notebook."""
from dpcore import viz
from dpcore.estimators import selection
from dpcore.lessons import tournament as tournament_lesson

result = tournament_lesson.selection_sweep({n}, {k}, {eps}, trials={trials}, seed={seed})
print(result.to_csv()[:400])
fig = viz.animated_sweep(viz.sweep_frames(result, x="n", frame="k", fixed={{"epsilon": {epsilon}}}, statistic="mean"),
                         x_title="n", y_title="TV of the selected hypothesis", frame_title="k")
fig.show()

# One private selection among k = 41 Gaussians:
import numpy as np
family = tournament_lesson.spaced_grid(41)
x = np.random.default_rng(0).normal(0.33, 1.0, 300)
choice = selection.private_select(family, x, epsilon=0.1, rng=1)
print(family.means[choice.index], choice.guarantee)
'''


@st.cache_resource(max_entries=16, show_spinner=False)
def family(k):
    return tournament_lesson.spaced_grid(k)


@st.cache_data(max_entries=32, show_spinner=False)
def one_run(k, n, epsilon, seed):
    hypotheses = family(k)
    rng = np.random.default_rng(seed)
    data_rng, noise_rng = rng.spawn(2)
    x = hypotheses.sample(TRUTH, (n,), data_rng)
    chosen = selection.private_select(hypotheses, x, epsilon, ALPHA, noise_rng)
    return (x, selection.win_matrix(hypotheses, x), chosen.scores, chosen.probabilities, int(chosen.index),
            selection.tournament_winner(hypotheses, x), selection.minimum_distance(hypotheses, x))


@st.cache_data(max_entries=16, show_spinner="Simulating selections over n, k and ε (a few seconds)…")
def item_sweep(trials, seed):
    return load_or_run(PRECOMPUTED, tournament_lesson.selection_sweep, n_values=list(N_GRID), ks=list(K_GRID),
                       epsilons=list(EPSILON_FRAMES), trials=trials, seed=seed, alpha=ALPHA, truth_mean=TRUTH[0])


@st.cache_data(max_entries=16, show_spinner="Simulating user-level selections (about ten seconds)…")
def user_sweep(seed):
    return load_or_run(PRECOMPUTED, tournament_lesson.user_level_sweep, user_counts=list(USER_N), per_user=list(PER_USER),
                       epsilons=list(USER_EPSILONS), trials=USER_TRIALS, seed=seed, alpha=ALPHA, hypotheses=41,
                       truth_mean=TRUTH[0])


def opt():
    return float(family(41).tv_from(TRUTH).min())


@st.cache_resource(max_entries=32, show_spinner=False)
def contest_figure(a, b, k, n, epsilon, seed, presentation):
    x = one_run(k, n, epsilon, seed)[0]
    pair = selection.GaussianFamily(np.array([a, b]), np.ones(2))
    p1, p2 = pair.probabilities()
    tau = pair.set_counts(x)[0, 1] / n
    grid = np.linspace(min(a, b) - 3.5, max(a, b) + 3.5, 400)
    density = lambda mu: np.exp(-(grid - mu) ** 2 / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    midpoint = (a + b) / 2
    shaded = [(midpoint, np.inf)] if a > b else [(-np.inf, midpoint)]
    title = f"N({a:g}, 1) vs N({b:g}, 1): p₁ = {p1[0, 1]:.3f}, p₂ = {p2[0, 1]:.3f}, τ̂ = {tau:.3f}"
    return viz.figures.tournament.scheffe_figure(x, {f"H_i = N({a:g}, 1)": (grid, density(a)), f"H_j = N({b:g}, 1)": (grid, density(b))},
                              shaded, shaded_name="Scheffé set W = {h_i > h_j}", title=title,
                              presentation=presentation)


def label(mu):
    return f"{mu:+.1f}"


@st.cache_resource(max_entries=16, show_spinner=False)
def matrix_figure(k, n, epsilon, seed, presentation):
    wins = one_run(k, n, epsilon, seed)[1]
    return viz.figures.tournament.win_matrix_figure(wins, [label(mu) for mu in family(k).means],
                                 title=f"Who beats whom: k = {k} hypotheses, n = {n:,}", presentation=presentation)


@st.cache_resource(max_entries=16, show_spinner=False)
def scores_figure(k, n, epsilon, seed, presentation):
    _, _, scores, probabilities, chosen, _, _ = one_run(k, n, epsilon, seed)
    means = family(k).means
    return viz.figures.tournament.selection_figure(means, scores, probabilities,
                                {"truth μ = 0.33": TRUTH[0], f"selected μ = {means[chosen]:+.1f}": float(means[chosen])},
                                x_title="hypothesis mean μ", title=f"Scores and selection probabilities, ε = {epsilon:g}",
                                presentation=presentation)


@st.cache_resource(max_entries=16, show_spinner=False)
def plane_figures(epsilon, seed, presentation):
    """KSU20's tournament on Student-t(3) points in the plane: score and probability heatmaps over the cover."""
    rng = np.random.default_rng(seed)
    data_rng, noise_rng = rng.spawn(2)
    points = np.array(PLANE_MEAN) + data_rng.standard_t(3, (PLANE_N, 2))
    cover = np.array([(x, y) for y in COVER_AXIS for x in COVER_AXIS])
    chosen = selection.ksu20_tournament(points, cover, epsilon, ALPHA, rng=noise_rng)
    marks = {"true mean": PLANE_MEAN, "selected": tuple(cover[chosen.index])}
    shape = (COVER_AXIS.size, COVER_AXIS.size)
    return tuple(viz.figures.tournament.grid_scores_figure(COVER_AXIS, COVER_AXIS, values.reshape(shape), marks, value_title=name,
                                        title=f"{name}, n = {PLANE_N}, ε = {epsilon:g}", presentation=presentation)
                 for name, values in (("score", chosen.scores), ("P(select)", chosen.probabilities)))


def guarantee_series(n_values, k, epsilon):
    n = np.array(n_values, dtype=float)
    bound = np.minimum(1.0, 5 * selection.guarantee_alpha(n, k, epsilon, BETA) + opt())
    return [viz.Series("guarantee 5α(n) + OPT", n, bound, kind="theory", color=viz.method_color("theory")),
            viz.Series("OPT (best hypothesis)", n, np.full(n.size, opt()), kind="baseline",
                       color=viz.method_color("lower bound"))]


@st.cache_resource(max_entries=32, show_spinner=False)
def tv_vs_n_figure(trials, seed, epsilon, presentation, start):
    result = item_sweep(trials, seed)
    frames = viz.sweep_frames(result, x="n", frame="k", fixed={"epsilon": epsilon}, statistic="mean",
                              theory=lambda k: guarantee_series(N_GRID, k, epsilon))
    return viz.animated_sweep(frames, x_title="sample size n", y_title="TV of the selected hypothesis (mean)",
                              frame_title="k", title=f"Selection error vs n at ε = {epsilon:g}",
                              presentation=presentation, start=str(start))


def needed_by_k(result, method, epsilon):
    return np.array([samples_needed(np.array(N_GRID, dtype=float),
                                    result.curve(method, "n", k=k, epsilon=epsilon)["mean"], TARGET_TV)
                     for k in K_GRID])


@st.cache_resource(max_entries=32, show_spinner=False)
def price_of_k_figure(trials, seed, presentation, start):
    result = item_sweep(trials, seed)
    k = np.array(K_GRID, dtype=float)
    frames = []
    for epsilon in EPSILON_FRAMES:
        needed = needed_by_k(result, tournament_lesson.PRIVATE, epsilon)
        theory = 2 * np.log(k / BETA) / (epsilon * TARGET_TV / 5)
        frames.append(viz.FrameData(f"{epsilon:g}", [
            viz.Series(tournament_lesson.PRIVATE, k, needed),
            viz.Series("privacy term 2 ln(k/β)/(εα), α = TV/5", k, theory, kind="theory",
                       color=viz.method_color("theory")),
        ]))
    return viz.animated_sweep(frames, x_title="number of hypotheses k", y_title=f"n needed for mean TV ≤ {TARGET_TV:g}",
                              frame_title="ε", title="The price of k: samples needed grow like ln k",
                              presentation=presentation, start=f"{start:g}")


def users_needed(result, method, epsilon):
    return np.array([samples_needed(np.array(USER_N, dtype=float),
                                    result.curve(method, "n", m=m, epsilon=epsilon)["mean"], TARGET_TV)
                     for m in PER_USER])


@st.cache_resource(max_entries=16, show_spinner=False)
def users_needed_figure(seed, presentation, start):
    result = user_sweep(seed)
    m = np.array(PER_USER, dtype=float)
    frames = []
    for epsilon in USER_EPSILONS:
        needed = {method: users_needed(result, method, epsilon) for method in tournament_lesson.USER_METHODS}
        shape = selection.users_needed_theory(m, 41, TARGET_TV / 5, epsilon, BETA)
        measured = needed[tournament_lesson.USER_CLIPPED]
        found = np.isfinite(measured)
        constant = float(np.exp(np.mean(np.log(measured[found] / shape[found])))) if found.any() else 1.0
        frames.append(viz.FrameData(f"{epsilon:g}", [viz.Series(method, m, values) for method, values in needed.items()]
                                    + [viz.Series("seed 002's shape × fitted constant", m, constant * shape,
                                                  kind="theory", color=viz.method_color("theory"))]))
    return viz.animated_sweep(frames, x_title="examples per user m", y_title=f"users needed for mean TV ≤ {TARGET_TV:g}",
                              frame_title="ε", title="User-level selection: users needed vs m",
                              presentation=presentation, start=f"{start:g}")


@st.cache_resource(max_entries=16, show_spinner=False)
def user_tv_figure(seed, epsilon, presentation, start):
    result = user_sweep(seed)
    frames = viz.sweep_frames(result, x="n", frame="m", fixed={"epsilon": epsilon}, statistic="mean")
    return viz.animated_sweep(frames, x_title="number of users n", y_title="TV of the selected hypothesis (mean)",
                              frame_title="m", title=f"Item-level vs user-level, ε = {epsilon:g}",
                              presentation=presentation, start=str(start))


ui.setup_page("Tournament selection", "⚔")
params = ui.controls(SPECS)
epsilon, n, k, a, b = params["eps"], params["n"], params["k"], params["a"], params["b"]
per_user, trials, seed = params["m"], params["trials"], params["seed"]
present = ui.presentation_mode()

ui.prose(
    "Given k candidate distributions and data from an unknown P, pick a candidate close to P in total variation. "
    "Compare them in pairs: for Hᵢ vs Hⱼ, look at the set W where Hᵢ's density is larger; whichever predicts the "
    "data's share of points in W better wins. Privately, give each hypothesis a **score** — how many data points "
    "must change before it loses a contest it should win — and draw one with the exponential mechanism. One person "
    "moves every score by at most 1, so the cost of privacy grows only with **log k**."
)
ui.formula(r"\Gamma(H_i,H_j)=n\max\{0,\ \hat\tau_{ij}-p_2-\zeta\},\qquad S(H_i)=\min_{j\ne i}\Gamma(H_i,H_j)")
ui.formula(r"\Pr[\hat H=H_i]\propto e^{\varepsilon S(H_i)/2}")
ui.formula(r"n \ge \max\Big\{\frac{2\ln(k^2/\beta)}{\alpha^2},\ \frac{2\ln(k/\beta)}{\varepsilon\alpha}\Big\}"
           r"\ \Rightarrow\ d_{TV}(P,\hat H)\le 5\alpha\ \text{w.p. } 1-2\beta")

with ui.guard():
    if a == b:
        raise ValueError("a and b must be two different hypotheses (pick two different means for the contest)")
    x, wins, scores, probabilities, chosen, winner, closest = one_run(k, n, epsilon, seed)
    means, distances = family(k).means, family(k).tv_from(TRUTH)
    st.caption(
        f"Data: n = {n:,} points from P = N(0.33, 1); k = {k} hypotheses N(μ, 1), μ from {means[0]:+.1f} to "
        f"{means[-1]:+.1f}; OPT = {opt():.3f}. This run: private choice μ = **{means[chosen]:+.1f}** (TV "
        f"{distances[chosen]:.3f}), tournament winner μ = {means[winner]:+.1f} (TV {distances[winner]:.3f})."
    )

    st.subheader("One contest")
    ui.prose(
        "The histogram is the data; the curves are the two hypotheses; the shaded region is the Scheffé set "
        "W = {hᵢ > hⱼ} (for two Gaussians of equal variance, the half-line beyond the midpoint). Hᵢ predicts a share "
        "p₁ of the points there, Hⱼ predicts p₂; the data's share τ̂ is closer to the winner's prediction."
    )
    ui.plotly(contest_figure(a, b, k, n, epsilon, seed, present), key="contest")

    st.subheader("The whole tournament")
    ui.prose(
        f"All {k * (k - 1) // 2:,} contests at once (one sort of the data). Row Hᵢ against column Hⱼ: blue = Hᵢ wins, "
        "vermillion = it loses. The matrix is antisymmetric; the non-private winner has the most blue in its row."
    )
    ui.plotly(matrix_figure(k, n, epsilon, seed, present), key="win_matrix")

    st.subheader("Scores and the exponential mechanism")
    ui.prose(
        "Top: each hypothesis's score S = the number of points to change before it loses a contest it should win "
        "(close pairs, within κ = 4α in TV, count as ties and cost n). Bottom: the probabilities exp(εS/2)/Z the "
        "mechanism draws from. Lower ε flattens them; more hypotheses spread the mass, but only like ln k."
    )
    ui.plotly(scores_figure(k, n, epsilon, seed, present), key="scores")

    frame_epsilon = ui.nearest(EPSILON_FRAMES, epsilon)
    st.subheader("Error vs n, one frame per k")
    ui.prose(
        f"Mean TV between P and the selected hypothesis over {trials} datasets (band: 10–90 %), at ε = "
        f"{frame_epsilon:g} (the sweep's ε nearest yours). Dashed: our guarantee 5α(n) + OPT; dotted: OPT. Play k: "
        "the non-private tournaments do not care; the private one needs more data as k grows — slowly."
    )
    vs_n = tv_vs_n_figure(trials, seed, frame_epsilon, present, k)
    ui.animated(vs_n, key="tv_vs_n")

    st.subheader("The price of k")
    result = item_sweep(trials, seed)
    needed = needed_by_k(result, tournament_lesson.PRIVATE, frame_epsilon)
    found = np.isfinite(needed)
    slope = np.polyfit(np.log(np.array(K_GRID, dtype=float)[found]), needed[found], 1)[0] if found.sum() >= 2 else np.nan
    exponent = fit_power_law(np.array(K_GRID, dtype=float)[found], needed[found])[0] if found.sum() >= 2 else np.nan
    ui.prose(
        f"Samples the private selection needs for mean TV ≤ {TARGET_TV:g} (interpolated between the n of the sweep), "
        "per ε; the non-private tournaments reach it with the smallest n of the sweep at every k. A straight line on "
        "this log-x axis is growth like ln k. Dashed: the privacy term of our guarantee — same slope, loose constant."
    )
    ui.animated(price_of_k_figure(trials, seed, present, frame_epsilon), key="price_of_k")

    st.subheader("User level: many examples per person")
    frame_user_epsilon = ui.nearest(USER_EPSILONS, epsilon)
    ui.prose(
        f"n users with m examples each, ε = {frame_user_epsilon:g} user-level DP ({USER_TRIALS} datasets per point). "
        "Clipping each user's contribution to ±√m keeps the signal (which grows like m) and cuts the sensitivity from "
        "m to 2√m. Group privacy (no clipping, Δ = m) and keeping one example per user do not get better with m. "
        "The item-level curve uses all n·m examples but only protects single examples — shown for contrast."
    )
    ui.animated(users_needed_figure(seed, present, frame_user_epsilon), key="users_needed")
    ui.animated(user_tv_figure(seed, frame_user_epsilon, present, per_user), key="user_tv")

    st.subheader("In the plane: KSU20's tournament for a heavy-tailed mean")
    ui.prose(
        f"Seed 004's pure-DP tournament, on {PLANE_N} Student-t(3) points (heavy tails, mean {PLANE_MEAN}) over a public "
        "7 × 7 grid of candidate means. A match between candidates p and q projects the data on the line through them, "
        "clips to [−4, 4] and takes the median of 5 group means; p loses if it lands past the midpoint. The score of "
        "p is how many points must change before p loses some match — sensitivity 1 — and the exponential mechanism "
        "draws from exp(ε·score/2). (The seed finds the grid with a private coarse range on half the data; here the "
        "grid is fixed in advance, which keeps ε-DP. The cover grows exponentially with d: the plane only.)"
    )
    score_fig, probability_fig = plane_figures(epsilon, seed, present)
    left, right = st.columns(2)
    with left:
        ui.plotly(score_fig, key="plane_scores")
    with right:
        ui.plotly(probability_fig, key="plane_probabilities")

    st.subheader("What to notice")
    user_result = user_sweep(seed)
    clipped = users_needed(user_result, tournament_lesson.USER_CLIPPED, frame_user_epsilon)
    group = users_needed(user_result, tournament_lesson.GROUP, frame_user_epsilon)
    at_m = PER_USER.index(per_user)
    st.markdown("\n".join([
        f"- This run: the non-private tournament picks μ = {means[winner]:+.1f}, the minimum-distance estimate "
        f"μ = {means[closest]:+.1f}, the private selection μ = {means[chosen]:+.1f} (truth 0.33, OPT {opt():.3f}).",
        (f"- The private selection needs about **{slope:,.0f} more samples per unit of ln k** at ε = {frame_epsilon:g} "
         f"(fitted power of k: {exponent:.2f} — far from linear in k)." if np.isfinite(slope) else
         "- Too few k reach the target TV at this ε to fit the growth."),
        (f"- At m = {per_user}, ε = {frame_user_epsilon:g}: clipped user-level scores need about "
         f"**{clipped[at_m]:,.0f}** users, group privacy {group[at_m]:,.0f}." if np.isfinite(clipped[at_m])
         and np.isfinite(group[at_m]) else
         f"- At m = {per_user}, ε = {frame_user_epsilon:g} not every method reaches TV ≤ {TARGET_TV:g} with ≤ "
         f"{USER_N[-1]:,} users."),
    ]))

    with st.expander("Go deeper: the sensitivity argument, the algorithm, references, downloads"):
        st.markdown(GO_DEEPER)
        ui.downloads(vs_n, name="selection_tv_vs_n",
                     snippet=SNIPPET.format(n=list(N_GRID), k=list(K_GRID), eps=list(EPSILON_FRAMES), trials=trials,
                                            seed=seed, epsilon=frame_epsilon))
