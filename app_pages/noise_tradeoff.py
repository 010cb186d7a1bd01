"""Pure vs approximate DP: what δ buys, measured (seeds 001, 004, 000; algorithms.md §2)."""

import math

import numpy as np
import streamlit as st

import ui
from dpcore import viz
from dpcore.estimators import mean_release as nt
from dpcore.experiments import fit_power_law, load_or_run
from dpcore.lessons import noise_tradeoff as noise_tradeoff_lesson

DIMENSIONS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
N_GRID = (100, 300, 1000, 3000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
EPSILON_FRAMES = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
NOISE_FRAMES = (0.25, 0.5, 1.0, 2.0, 4.0)
RELEASE_EPSILON_FRAMES = (0.01, 0.03, 0.1, 0.3, 1.0)
DELTAS = tuple(10.0**-e for e in range(3, 13))
CLOUD_RELEASES = 400

SPECS = [
    ui.epsilon_spec(default=1.0, low=0.05, high=10.0),
    ui.delta_spec(default=1e-6, low=1e-12, high=1e-3),
    ui.ParamSpec(key="d", label="Dimension d", kind="choice", default=64, options=DIMENSIONS,
                 help="Number of coordinates of each data point (and of the mean being released)."),
    ui.n_spec(default=10_000, low=100, high=1_000_000),
    ui.ParamSpec(key="k", label="Composed releases k", kind="log", default=100,
                 options=tuple(ui.log_grid(1, 1000, integer=True)),
                 help="How many private releases are made from the same data (composition)."),
    ui.trials_spec(default=200, low=20, high=2000),
    ui.seed_spec(),
]


GO_DEEPER = r"""
**Algorithm** (replace-one neighbours; public centre c and radius C).
1. Clip: x̃ᵢ = c + (xᵢ − c)·min(1, C/‖xᵢ − c‖₂). Then Δ₂ = 2C/n and Δ₁ ≤ 2C√d/n for the mean.
2. Release x̄̃ + Z with
   - **Laplace**: Zⱼ ~ Lap(Δ₁/ε) i.i.d. — **ε-DP** (pure).
   - **Gaussian, classical**: Z ~ N(0, σ²I), σ = Δ₂√(2 ln(1.25/δ))/ε — **(ε, δ)-DP** for ε ≤ 1 (Dwork–Roth Thm A.1).
   - **Gaussian, analytic**: the smallest σ with δ_N(ε; Δ₂/σ) ≤ δ — **(ε, δ)-DP** for every ε (Balle & Wang 2018).
   - **zCDP Gaussian**: σ = Δ₂/ε — **ε²/2-zCDP**, the zCDP that ε-DP Laplace also has (Bun & Steinke 2016).

**Simulation model.** Data N(μ, I_d), C = √d + √(2 ln(n/β)) with β = 0.1, so with probability ≥ 0.9 no point is
clipped and the clipped mean is the sample mean, exactly N(μ, I/n). The sweeps draw that sufficient statistic and
privatise it with the library's audited mechanisms; the one-run picture clips real points.

**Composition** (per release ε₀, total δ): basic kε₀; advanced ε₀√(2k ln(1/δ)) + kε₀(e^ε₀ − 1) (Dwork, Rothblum &
Vadhan 2010); zCDP ρ = kε₀²/2 then ρ + 2√(ρ ln(1/δ)); exact Gaussian: k releases with μ₀ = ε₀ are one Gaussian
with μ = √k ε₀ (Dong, Roth & Su 2019).

**Sources.** Hopkins, Kamath & Majid, *Efficient mean estimation with pure differential privacy via a
sum-of-squares exponential mechanism* (STOC 2022; the Laplace d^1.5 vs Gaussian d table); Kamath, Singhal &
Ullman, *Private mean estimation of heavy-tailed distributions* (COLT 2020; Thms 1.3/1.4: pure vs zCDP rates);
Singhal, *A polynomial time, pure DP estimator for binary product distributions* (why pure DP cannot borrow
advanced composition).
"""


def snippet(epsilon, delta, trials, seed):
    return f"""\"\"\"Reproduce the 'error vs n' figure of Private Estimation Lab in a notebook.\"\"\"
import numpy as np

from dpcore import viz
from dpcore.lessons import noise_tradeoff as noise_tradeoff_lesson

N_GRID = {N_GRID}
DIMENSIONS = {DIMENSIONS}
result = noise_tradeoff_lesson.error_sweep(np.array(N_GRID), np.array(DIMENSIONS), np.array([{epsilon!r}]), {delta!r},
                        trials={trials}, seed={seed}, mechanisms_used={mechanisms_for([epsilon])!r})
print(result.to_csv()[:500])
fig = viz.animated_sweep(viz.sweep_frames(result, x="n", frame="dimension", statistic="rmse"),
                         x_title="n", y_title="l2 error (RMSE)", frame_title="d")
fig.show()
"""


def mechanisms_for(epsilons) -> tuple[str, ...]:
    """The classical Gaussian is proved only for ε ≤ 1: leave it out of sweeps that go above."""
    return nt.MECHANISMS if max(epsilons) <= 1.0 else tuple(m for m in nt.MECHANISMS if m != "Gaussian (classical)")


PRECOMPUTED = ui.ASSETS / "precomputed"


@st.cache_data(max_entries=64, show_spinner=False)
def error_vs_n(epsilon: float, delta: float, trials: int, seed: int):
    return load_or_run(PRECOMPUTED, noise_tradeoff_lesson.error_sweep, n_values=list(N_GRID), dimensions=list(DIMENSIONS),
                       epsilons=[epsilon], delta=delta, trials=trials, seed=seed,
                       mechanisms_used=list(mechanisms_for([epsilon])))


@st.cache_data(max_entries=64, show_spinner=False)
def error_vs_dimension(n: int, delta: float, trials: int, seed: int):
    return load_or_run(PRECOMPUTED, noise_tradeoff_lesson.error_sweep, n_values=[n], dimensions=list(DIMENSIONS),
                       epsilons=list(EPSILON_FRAMES), delta=delta, trials=trials, seed=seed,
                       mechanisms_used=list(mechanisms_for(EPSILON_FRAMES)))


@st.cache_resource(max_entries=32, show_spinner=False)
def release_cloud(n: int, epsilon: float, delta: float, seed: int, presentation: bool):
    """One 2-D dataset N(μ, I), 400 Laplace and analytic-Gaussian releases of its clipped mean, as a figure."""
    rng = np.random.default_rng(seed)
    center = np.array([1.0, -0.5])
    points = center + rng.standard_normal((n, 2))
    radius = nt.clip_radius(2, n)
    data_rng, laplace_rng, gauss_rng = rng.spawn(3)
    releases = {name: nt.repeated_releases(points, epsilon, delta, name, radius, CLOUD_RELEASES, center, stream)
                for name, stream in (("Laplace", laplace_rng), ("Gaussian (analytic)", gauss_rng))}
    shown = points[data_rng.choice(n, size=min(n, 400), replace=False)]
    return viz.figures.noise_tradeoff.release_clouds(shown, center, radius, releases, title=f"n = {n:,}, ε = {epsilon:g}, δ = {delta:g}",
                              presentation=presentation)


TARGET_ERROR = 0.1


@st.cache_data(max_entries=32, show_spinner="Running the exponential mechanism over the cover…")
def complexity_rows(dimension: int, epsilon: float, delta: float, seed: int):
    cover = noise_tradeoff_lesson.cover_samples_needed(dimension, TARGET_ERROR, epsilon, seed=seed) if dimension <= 2 else None
    return [{"method": row.method, "privacy": row.guarantee, "samples for error α": row.sample_complexity,
             "running time": row.running_time,
             f"n for RMSE ≤ {TARGET_ERROR:g}": "—" if row.samples is None else f"{row.samples:,}", "how": row.how}
            for row in noise_tradeoff_lesson.sample_complexity_table(dimension, TARGET_ERROR, epsilon, delta, cover)]


def exact_rmse_curves(methods, x_values, expected):
    """Dashed exact-RMSE companions, one per method: ``expected(method, x)`` at every x."""
    return [viz.theory_series(m, np.array(x_values), np.array([expected(m, x) for x in x_values])) for m in methods]


PROFILE_FLOOR = 1e-12  # δ below this leaves the chart (the Laplace profile's exact 0 included)


def profile_frames():
    epsilons = np.linspace(0.0, 6.0, 121)
    frames = []
    for noise_epsilon in NOISE_FRAMES:
        profiles = {name: np.where(values >= PROFILE_FLOOR, values, np.nan)
                    for name, values in noise_tradeoff_lesson.privacy_profiles(epsilons, noise_epsilon).items()}
        frames.append(viz.FrameData(f"{noise_epsilon:g}", [
            viz.Series("Laplace", epsilons, profiles["Laplace"]),
            viz.Series("Gaussian (analytic)", epsilons, profiles["Gaussian"]),
            viz.Series("Laplace reaches δ = 0", [noise_epsilon, noise_epsilon], [PROFILE_FLOOR, 1.0], kind="baseline",
                       color=viz.method_color("Laplace")),
        ]))
    return frames


def composition_frames(delta):
    releases = np.array(ui.log_grid(1, 1000, integer=True), dtype=float)
    names = {"basic": "basic (pure)", "advanced": "advanced", "zCDP": "zCDP", "exact Gaussian": "exact Gaussian"}
    colors = {"basic": viz.method_color("Laplace"), "advanced": viz.OKABE_ITO["sky blue"],
              "zCDP": viz.method_color("zCDP Gaussian"), "exact Gaussian": viz.method_color("Gaussian (analytic)")}
    frames = []
    for release_epsilon in RELEASE_EPSILON_FRAMES:
        totals = noise_tradeoff_lesson.composition_epsilons(releases, release_epsilon, delta)
        frames.append(viz.FrameData(f"{release_epsilon:g}", [
            viz.Series(names[key], releases, values, color=colors[key]) for key, values in totals.items()]))
    return frames


def sweep_figure(result, *, x, frame, fixed, x_values, expected, frame_title, title, presentation, start):
    """Simulated RMSE (markers, band) and exact RMSE (dashed) of every method along ``x``, one frame per
    value of ``frame``; ``expected(method, x, frame_value)`` is the exact RMSE."""
    def exact(frame_value):
        return exact_rmse_curves(result.methods, x_values, lambda m, at: expected(m, at, frame_value))
    frames = viz.sweep_frames(result, x=x, frame=frame, fixed=fixed, statistic="rmse", theory=exact)
    return viz.animated_sweep(frames, x_title="sample size n" if x == "n" else "dimension d",
                              y_title="ℓ2 error ‖μ̂ − μ‖", frame_title=frame_title, title=title,
                              presentation=presentation, start=start)


# Figures are cached whole and shared read-only between sessions (never mutated after building).
@st.cache_resource(max_entries=64, show_spinner=False)
def error_vs_n_figure(epsilon, delta, trials, seed, presentation, dimension):
    return sweep_figure(error_vs_n(epsilon, delta, trials, seed), x="n", frame="dimension", fixed={"epsilon": epsilon},
                        x_values=N_GRID, expected=lambda m, n, d: nt.expected_error(m, d, n, epsilon, delta),
                        frame_title="dimension d", title=f"Error vs n at ε = {epsilon:g}, δ = {delta:g}",
                        presentation=presentation, start=str(dimension))


@st.cache_resource(max_entries=64, show_spinner=False)
def error_vs_dimension_figure(n, delta, trials, seed, presentation, epsilon_frame):
    return sweep_figure(error_vs_dimension(n, delta, trials, seed), x="dimension", frame="epsilon", fixed={"n": n},
                        x_values=DIMENSIONS, expected=lambda m, d, eps: nt.expected_error(m, d, n, eps, delta),
                        frame_title="ε", title=f"Error vs d at n = {n:,}, δ = {delta:g}",
                        presentation=presentation, start=f"{epsilon_frame:g}")


@st.cache_resource(max_entries=8, show_spinner=False)
def profiles_figure(presentation):
    return viz.animated_sweep(profile_frames(), x_title="ε", y_title="δ(ε)",
                              frame_title="noise ε₀ (b = Δ/ε₀, σ = Δ/ε₀)",
                              title="Privacy profiles at matched zCDP ρ = ε₀²/2", log_x=False,
                              presentation=presentation, start="1")


@st.cache_resource(max_entries=32, show_spinner=False)
def composition_figure(delta, presentation):
    return viz.animated_sweep(composition_frames(delta), x_title="number of releases k",
                              y_title=f"total ε at δ = {delta:g}", frame_title="per-release ε₀",
                              title="Composition: total ε after k releases", presentation=presentation, start="0.1")


def ratio_exponent(result, n, epsilon):
    """Fitted exponent a of (Laplace RMSE / Gaussian RMSE) ∝ d^a over the simulated dimensions."""
    laplace = result.curve("Laplace", "dimension", n=n, epsilon=epsilon)["rmse"]
    gauss = result.curve("Gaussian (analytic)", "dimension", n=n, epsilon=epsilon)["rmse"]
    return fit_power_law(np.array(DIMENSIONS, dtype=float), laplace / gauss)[0]


def delta_table(epsilon, dimension, n):
    rows = []
    for delta in DELTAS:
        laplace = nt.calibrate("Laplace", dimension, n, epsilon, delta, nt.clip_radius(dimension, n)).rmse
        gauss = nt.calibrate("Gaussian (analytic)", dimension, n, epsilon, delta, nt.clip_radius(dimension, n)).rmse
        rows.append({"δ": f"{delta:.0e}", "Gaussian σ for Δ₂ = 1": round(gauss / (2 * nt.clip_radius(dimension, n) / n)
                                                                          / math.sqrt(dimension), 3),
                     "Laplace noise ÷ Gaussian noise": round(laplace / gauss, 2),
                     "crossover d*": round(noise_tradeoff_lesson.crossover_dimension(epsilon, delta), 1),
                     "δ × n": f"{delta * n:.0e}"})
    return rows


ui.setup_page("Pure vs approximate DP", "⚖️")
params = ui.controls(SPECS)
epsilon, delta, dimension, n = params["eps"], params["delta"], params["d"], params["n"]
trials, seed, releases = params["trials"], params["seed"], params["k"]
present = ui.presentation_mode()

ui.prose(
    "To release the mean of *n* points in *d* dimensions privately, clip each point to a ball of radius *C* "
    "(so one person moves the mean by at most 2*C*/*n*) and add noise. **Laplace** noise is calibrated to the "
    "ℓ₁ sensitivity and gives *pure* ε-DP; **Gaussian** noise is calibrated to the ℓ₂ sensitivity and needs a "
    "small failure probability δ > 0. The ℓ₁ sensitivity of a ball is √d times larger, so the price of "
    "purity grows like √d."
)
ui.formula(r"\mathrm{RMSE}_{\text{Laplace}} = \frac{2\sqrt2\,C\,d}{\varepsilon n}"
           r"\qquad \mathrm{RMSE}_{\text{Gauss}} = \frac{2C\sqrt d\,\sigma_1(\varepsilon,\delta)}{n}")
ui.formula(r"\frac{\mathrm{RMSE}_{\text{Laplace}}}{\mathrm{RMSE}_{\text{Gauss}}} = \frac{\sqrt{2d}}{\varepsilon\,\sigma_1}"
           r"\quad\text{: a } \sqrt d \text{ gap}")

with ui.guard():
    crossover = noise_tradeoff_lesson.crossover_dimension(epsilon, delta)
    radius = nt.clip_radius(dimension, n)
    at_d = {m: nt.calibrate(m, dimension, n, epsilon, delta, radius) for m in mechanisms_for([epsilon])}
    st.caption(
        f"At ε = {epsilon:g}, δ = {delta:g}, d = {dimension}, n = {n:,}: typical error of the released mean "
        f"{nt.expected_error('Laplace', dimension, n, epsilon, delta):.3g} with Laplace, "
        f"{nt.expected_error('Gaussian (analytic)', dimension, n, epsilon, delta):.3g} with the Gaussian, "
        f"{nt.expected_error('non-private', dimension, n, epsilon, delta):.3g} without privacy."
    )

    st.subheader("One run: the shape of the noise")
    ui.prose(
        "One 2-D dataset (d = 2), its clipping ball, and 400 private releases of its clipped mean by each "
        "mechanism. Laplace noise is independent per coordinate, so its cloud is a diamond; Gaussian noise "
        f"is round. In d = 2 Laplace's cloud is *smaller* here: the Gaussian only wins above d* ≈ {crossover:.1f}."
    )
    ui.plotly(release_cloud(min(n, 20_000), epsilon, delta, seed, present), key="clouds")

    frame_epsilon = ui.nearest(EPSILON_FRAMES, epsilon)
    vs_n = error_vs_n_figure(epsilon, delta, trials, seed, present, dimension)
    st.subheader("Error vs n, one frame per dimension")
    ui.prose(
        "Markers: Monte Carlo RMSE over the trials with the 10–90 % band; dashed: the exact RMSE "
        "√(d/n + noise²). Play the dimensions: the non-private line moves like √d, the Gaussian like d, "
        "Laplace like d^1.5. The classical Gaussian appears only for ε ≤ 1, where its proof holds."
    )
    ui.animated(vs_n, key="error_vs_n")

    st.subheader("Error vs d, one frame per ε: the √d gap")
    ui.prose("The ε frames run up to 10, beyond the classical Gaussian's proof (ε ≤ 1), so only the analytic "
             "calibration appears here.")
    ui.animated(error_vs_dimension_figure(n, delta, trials, seed, present, frame_epsilon), key="error_vs_d")
    exponent = ratio_exponent(error_vs_dimension(n, delta, trials, seed), n, frame_epsilon)

    st.subheader("Privacy profiles: pure DP is a worst-case promise")
    ui.prose(
        "δ(ε) is the smallest δ for which a mechanism is (ε, δ)-DP. Both mechanisms here have the same zCDP "
        "ρ = ε₀²/2. Laplace's profile reaches 0 at ε₀: it is ε₀-DP with δ = 0. The Gaussian's never does: "
        "for any ε there is a tiny probability of a larger privacy loss."
    )
    ui.animated(profiles_figure(present), key="profiles")

    st.subheader("Composition: k releases from the same data")
    beats_at = noise_tradeoff_lesson.advanced_beats_basic_from(0.1, delta)
    ui.prose(
        "Each release is ε₀-DP Laplace (or the Gaussian with the same zCDP). Pure DP adds up (basic: kε₀); "
        "advanced composition trades a δ for √k growth; zCDP and the exact Gaussian accounting do better still. "
        "Pure DP cannot use the √k savings without giving up δ = 0 (seed 000)."
    )
    ui.animated(composition_figure(delta, present), key="composition")
    totals = {key: float(values[0]) for key, values in noise_tradeoff_lesson.composition_epsilons(np.array([releases]), 0.1, delta).items()}

    st.subheader("Pick your δ")
    ui.prose(
        "δ is the probability that the guarantee fails outright, so it must be much smaller than 1/n "
        "(otherwise a mechanism could publish one random person's record and still be 'private'). "
        "Smaller δ costs Gaussian noise only through √log(1/δ): the advantage shrinks slowly."
    )
    st.dataframe(delta_table(epsilon, dimension, n), hide_index=True, width="stretch")

    st.subheader("Five ways to estimate a mean (seed 001's table)")
    ui.prose(
        f"The rates from the slides, and the n each estimator needs here for ℓ₂ error ≤ {TARGET_ERROR:g} at the chosen "
        "d, ε, δ. The exponential mechanism over a grid cover is pure DP with a rate linear in d, but its time is "
        "exponential in d: it runs here only for d ≤ 2 (pick d = 1 or 2 to measure it; its score is the halfspace "
        "depth, sensitivity 1). The sum-of-squares exponential mechanism of Hopkins–Kamath–Majid replaces the cover "
        "by an SDP score over directions and log-concave sampling, which makes it polynomial; it is not run here. "
        "\"exact\": from the exact RMSE of "
        "the simulation model below; \"Monte Carlo\": measured over 20 datasets, to a factor √2 in n."
    )
    st.dataframe(complexity_rows(dimension, epsilon, delta, seed), hide_index=True, width="stretch")

    st.subheader("What to notice")
    st.markdown("\n".join([
        f"- At ε = {epsilon:g}, δ = {delta:g} the Gaussian's noise is smaller than Laplace's once d > "
        f"**{crossover:.1f}**; at d = {dimension} Laplace's noise is "
        f"**{at_d['Laplace'].rmse / at_d['Gaussian (analytic)'].rmse:.2f}×** the Gaussian's.",
        f"- At n = {n:,}, ε = {frame_epsilon:g} the measured Laplace/Gaussian error ratio grows like "
        f"d^**{exponent:.2f}** over d = 1…1024 (theory: d^0.5 where the noise dominates; the sampling error √(d/n), "
        f"common to both, pulls the ratio towards 1 at large n).",
        f"- After k = {releases} releases at ε₀ = 0.1: basic {totals['basic']:.2f}, advanced {totals['advanced']:.2f}, "
        f"zCDP {totals['zCDP']:.2f}, exact Gaussian {totals['exact Gaussian']:.2f} (total ε at δ = {delta:g}). "
        + (f"Advanced composition beats basic from **k = {beats_at}** on." if beats_at else ""),
        f"- δ × n = {delta * n:.0e}: "
        + (f"δ is {1 / (delta * n):,.0f}× below 1/n — comfortably small." if delta * n <= 0.01 else
           "**too large** — δ should be far below 1/n (δ × n ≪ 1)."),
    ]))

    with st.expander("Go deeper: algorithms, guarantees, references, downloads"):
        st.markdown(GO_DEEPER)
        ui.downloads(vs_n, name="error_vs_n", snippet=snippet(epsilon, delta, trials, seed))
