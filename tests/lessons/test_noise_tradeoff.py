"""The pure-vs-approximate lesson (dpcore.lessons.noise_tradeoff) against docs/algorithms.md §0.3–0.5 and §2.

Known values, closed forms, exact definitions (hockey-stick integrals), seeded Monte Carlo checks of the sweeps,
the page's functions, its takeaways and its question. The mechanisms it compares are
tests/estimators/test_mean_release.py.
"""

import json
import math

import numpy as np
import pytest
from scipy import integrate, optimize, stats

from dpcore import accounting
from dpcore.estimators import mean_release as nt
from dpcore.experiments import fit_power_law
from dpcore.lessons import noise_tradeoff as lesson
from dpcore.lessons.plain_words import superscript

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "error_sweep": dict(
        n_values=np.array([10.0, 100.0]),
        dimensions=np.array([1.0, 4.0]),
        epsilons=np.array([0.5, 1.0]),
        delta=1e-6,
        trials=5,
        seed=0,
        beta=0.1,
    ),
    "crossover_dimension": dict(epsilon=1.0, delta=1e-6, calibration="classical"),
    "privacy_profiles": dict(epsilons=np.array([0.0, 1.0]), noise_epsilon=1.0),
    "composition_epsilons": dict(
        releases=np.array([1.0, 10.0]), release_epsilon=0.1, delta=1e-6
    ),
    "advanced_beats_basic_from": dict(release_epsilon=0.1, delta=1e-6),
    "samples_needed": dict(
        mechanism="laplace", dimension=4, target_error=0.5, epsilon=1.0, delta=1e-6, beta=0.1
    ),
    "cover_samples_needed": dict(dimension=1, target_error=0.5, epsilon=1.0, trials=2, seed=0),
    "sample_complexity_table": dict(
        dimension=2, target_error=0.5, epsilon=1.0, delta=1e-6, cover_samples=100
    ),
    "mechanisms_for": dict(epsilons=[0.5, 2.0]),
    "nearest_frame": dict(epsilon=0.3),
    "error_vs_n": dict(epsilon=1.0, delta=1e-6, trials=2, seed=0),
    "error_vs_dimension": dict(n=1000, delta=1e-6, trials=2, seed=0),
    "theory_vs_n": dict(method="laplace", dimension=4, epsilon=1.0, delta=1e-6),
    "theory_vs_dimension": dict(method="non_private", n=1000, epsilon=1.0, delta=1e-6),
    "error_ratio_exponent": dict(n=1000, delta=1e-6, trials=2, seed=0, epsilon=1.0),
    "release_cloud": dict(n=50, epsilon=1.0, delta=1e-6, seed=0),
    "profile_curves": dict(noise_epsilon=1.0),
    "composition_curves": dict(release_epsilon=0.1, delta=1e-6),
    "complexity_rows": dict(dimension=4, epsilon=1.0, delta=1e-6, seed=0),
    "delta_table": dict(epsilon=1.0, dimension=4, n=1000),
    "accuracy_caption": dict(epsilon=1.0, delta=1e-6, dimension=4, n=1000),
    "takeaways": dict(
        epsilon=1.0, delta=1e-6, dimension=4, n=1000, releases=10, trials=2, seed=0
    ),
    "tradeoff_curves": dict(epsilon=1.0, delta=1e-6),
    "tradeoff_caption": dict(epsilon=1.0, delta=1e-6),
    "crossover_question": dict(epsilon=1.0, delta=1e-6),
    "zcdp_gaussian_epsilon": dict(epsilon=1.0, delta=1e-6),
}


DIMENSIONS = np.array([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024], dtype=float)


# ------------------------------------------------------------------------------------ known values
@pytest.mark.parametrize("epsilon, delta, calibration, expected, tolerance", [
    (1.0, 1e-5, "classical", math.log(1.25e5), 1e-9),  # = 11.7361 (docs/algorithms.md §2.6.4)
    (1.0, 1e-6, "classical", 14.04, 5e-3),
    (1.0, 1e-6, "analytic", 8.92, 5e-3),  # 4.2247² / 2
    (0.5, 1e-5, "analytic", (0.5 * 7.0318) ** 2 / 2, 1e-3),  # docs/algorithms.md §0.2 reference σ
])
def test_crossover_dimension_known_values(epsilon, delta, calibration, expected, tolerance):
    assert lesson.crossover_dimension(epsilon, delta, calibration) == pytest.approx(expected, abs=tolerance)


def test_crossover_dimension_is_where_the_noise_rmses_cross():
    crossover = lesson.crossover_dimension(1.0, 1e-6)
    ratio = [nt.calibrate("laplace", d, 1000, 1.0, 1e-6, 3.0).rmse / nt.calibrate("gaussian_analytic", d, 1000, 1.0,
                                                                                  1e-6, 3.0).rmse for d in (8, 9)]
    assert 8 < crossover < 9 and ratio[0] < 1 < ratio[1]
    assert ratio[1] == pytest.approx(math.sqrt(9 / crossover))  # ratio = sqrt(d / d*)


def test_composition_known_values():
    totals = lesson.composition_epsilons(np.array([100.0]), 0.1, 1e-6)
    assert list(totals) == ["basic", "advanced", "zCDP", "exact Gaussian"]
    expected = {"basic": 10.000, "advanced": 6.3082, "zCDP": 5.7565, "exact Gaussian": 4.8866}
    for key, value in expected.items():
        assert totals[key][0] == pytest.approx(value, abs=1e-4), key


def test_composition_matches_accounting_for_every_k():
    releases = np.array([1.0, 2.0, 10.0, 37.0, 1000.0])
    totals = lesson.composition_epsilons(releases, 0.3, 1e-8)
    for i, k in enumerate(releases.astype(int)):
        assert totals["basic"][i] == pytest.approx(0.3 * k)
        advanced = 0.3 * math.sqrt(2 * k * math.log(1e8)) + k * 0.3 * math.expm1(0.3)
        assert totals["advanced"][i] == pytest.approx(advanced)
        rho = k * 0.3**2 / 2
        assert totals["zCDP"][i] == pytest.approx(rho + 2 * math.sqrt(rho * math.log(1e8)))
        exact = totals["exact Gaussian"][i]  # one Gaussian with mu = sqrt(k) * eps0 at its exact epsilon
        assert accounting.gaussian_delta(exact, sigma=1 / (math.sqrt(k) * 0.3)) == pytest.approx(1e-8, rel=1e-6)
    assert np.all(totals["exact Gaussian"] <= totals["zCDP"])  # the exact accounting is the tightest


@pytest.mark.parametrize("release_epsilon, delta", [(0.1, 1e-6), (0.5, 1e-6), (0.3, 1e-10), (0.05, 1e-3)])
def test_advanced_beats_basic_from_matches_a_brute_force_scan(release_epsilon, delta):
    releases = np.arange(1, 2001, dtype=float)
    totals = lesson.composition_epsilons(releases, release_epsilon, delta)
    beats = totals["advanced"] < totals["basic"]
    first = lesson.advanced_beats_basic_from(release_epsilon, delta)
    assert first is not None and 1 < first <= 2000  # the scan reaches it
    assert int(releases[np.argmax(beats)]) == first
    assert np.all(beats[first - 1:]) and not np.any(beats[:first - 1])  # beats from k = first on, never before


@pytest.mark.parametrize("release_epsilon", [math.log(2.0), 0.8, 2.0])
def test_advanced_never_beats_basic_when_e_to_the_eps_reaches_2(release_epsilon):
    assert lesson.advanced_beats_basic_from(release_epsilon, 1e-6) is None
    totals = lesson.composition_epsilons(np.arange(1, 2001, dtype=float), release_epsilon, 1e-6)
    assert np.all(totals["advanced"] >= totals["basic"])


# ------------------------------------------------------------------------------------ privacy profiles
def hockey_stick(density_p, density_q, epsilon, lower, upper):
    """∫ (p − e^ε q)_+ by adaptive quadrature over the pieces where the integrand is positive."""
    def excess(x):
        return density_p(x) - math.exp(epsilon) * density_q(x)

    grid = np.linspace(lower, upper, 6001)
    sign = excess(grid) > 1e-12 * density_p(grid)  # not rounding noise where p = e^ε q exactly (Laplace at ε0)
    roots = [optimize.brentq(excess, grid[i], grid[i + 1], xtol=1e-15) for i in np.flatnonzero(sign[:-1] != sign[1:])]
    edges = [lower, *roots, upper]
    return sum(integrate.quad(excess, a, b, epsabs=1e-15, epsrel=1e-12, limit=200)[0]
               for a, b in zip(edges[:-1], edges[1:]) if excess((a + b) / 2) > 0)


EPSILONS = np.array([0.0, 0.2, 0.5, 1.0, 1.7, 3.0])


@pytest.mark.parametrize("noise_epsilon", [0.5, 1.0, 2.0])
def test_privacy_profiles_equal_the_hockey_stick_divergence(noise_epsilon):
    profiles = lesson.privacy_profiles(EPSILONS, noise_epsilon)
    scale = 1.0 / noise_epsilon  # b = Δ/ε0 and σ = Δ/ε0 with Δ = 1
    for i, epsilon in enumerate(EPSILONS):
        laplace = hockey_stick(stats.laplace(1.0, scale).pdf, stats.laplace(0.0, scale).pdf, epsilon,
                               -40 * scale, 40 * scale + 1)
        gauss = hockey_stick(stats.norm(1.0, scale).pdf, stats.norm(0.0, scale).pdf, epsilon,
                             -20 * scale, 20 * scale + 1)
        assert profiles["laplace"][i] == pytest.approx(laplace, rel=1e-6, abs=1e-13)
        assert profiles["gaussian_analytic"][i] == pytest.approx(gauss, rel=1e-6, abs=1e-15)


def test_privacy_profiles_equal_accounting_and_the_check_values():
    profiles = lesson.privacy_profiles(np.array([0.0, 0.3, 0.7, 1.0, 2.0]), 1.0)
    # docs/algorithms.md §0.3
    np.testing.assert_allclose(profiles["laplace"], [0.393469, 0.295312, 0.139292, 0.0, 0.0], atol=1e-6)
    gauss = lesson.privacy_profiles(np.array([0.0, 0.5, 1.0, 2.0]), 0.5)["gaussian_analytic"]  # σ = 2, μ = 0.5
    np.testing.assert_allclose(gauss[:3], [0.197413, 0.05244, 0.00683], rtol=1e-3)
    assert gauss[0] == pytest.approx(2 * stats.norm.cdf(0.25) - 1, rel=1e-12)
    # δ(2) = 9.44e-6 for σ = 2 (docs/algorithms.md §0.3), from the formula and the integral above alike.
    assert gauss[3] == pytest.approx(9.439e-6, rel=1e-3)
    for noise_epsilon in (0.25, 4.0):
        epsilons = np.linspace(0.0, 6.0, 25)
        profiles = lesson.privacy_profiles(epsilons, noise_epsilon)
        np.testing.assert_array_equal(profiles["laplace"],
                                      [accounting.laplace_delta(e, scale=1 / noise_epsilon) for e in epsilons])
        np.testing.assert_array_equal(profiles["gaussian_analytic"],
                                      [accounting.gaussian_delta(e, sigma=1 / noise_epsilon) for e in epsilons])
        assert np.all(profiles["gaussian_analytic"] > 0)  # never pure DP
        assert np.all(profiles["laplace"][epsilons >= noise_epsilon] == 0)  # pure DP at ε0


# ------------------------------------------------------------------------------------ samples needed
@pytest.mark.parametrize("mechanism, dimension, target, epsilon, delta", [
    ("laplace", 64, 0.1, 1.0, 1e-6), ("gaussian_analytic", 64, 0.1, 1.0, 1e-6),
    ("gaussian_classical", 10, 0.05, 0.5, 1e-8), ("zcdp_gaussian", 1000, 1.0, 0.2, 1e-6),
    ("non_private", 7, 0.03, 1.0, 1e-6), ("laplace", 1, 0.3, 2.0, 1e-6),
])
def test_samples_needed_is_the_smallest_n(mechanism, dimension, target, epsilon, delta):
    n = lesson.samples_needed(mechanism, dimension, target, epsilon, delta)
    assert n > 2
    assert nt.expected_error(mechanism, dimension, n, epsilon, delta) <= target
    assert nt.expected_error(mechanism, dimension, n - 1, epsilon, delta) > target


@pytest.mark.parametrize("dimension, target", [(64, 0.1), (10, 0.3), (3, 0.7), (1000, 2.0), (4, 0.5)])
def test_samples_needed_non_private_is_d_over_alpha_squared(dimension, target):
    assert lesson.samples_needed("non_private", dimension, target, 1.0, 1e-6) == math.ceil(dimension / target**2)


@pytest.mark.parametrize("mechanism, dimension, target", [("non_private", 1, 0.9), ("non_private", 1, 5.0),
                                                          ("laplace", 1, 100.0)])
def test_samples_needed_returns_2_when_two_samples_already_suffice(mechanism, dimension, target):
    """n = 2 is the smallest allowed sample size; when it meets the target it is the answer."""
    assert nt.expected_error(mechanism, dimension, 2, 1.0, 1e-6) <= target
    assert lesson.samples_needed(mechanism, dimension, target, 1.0, 1e-6) == 2


def test_samples_needed_orders_the_mechanisms_as_the_table_says():
    """The table of Hopkins, Kamath & Majid (2022) at d = 256: non-private < Gaussian < Laplace, and Laplace pays about
    √d/(εσ1) more noise."""
    needed = {m: lesson.samples_needed(m, 256, 0.5, 1.0, 1e-6) for m in ("non_private", "gaussian_analytic", "laplace")}
    assert needed["non_private"] < needed["gaussian_analytic"] < needed["laplace"]


# ------------------------------------------------------------------------------------ sweeps
def test_laplace_over_gaussian_error_ratio_grows_like_root_d():
    """Noise-dominated regime (n = 1000, ε = 0.5, δ = 1e-6): fitted exponent of RMSE ratio vs d within 0.5 ± 0.15."""
    result = lesson.error_sweep(np.array([1000]), DIMENSIONS, np.array([0.5]), 1e-6, trials=1000, seed=0,
                            mechanisms_used=("laplace", "gaussian_analytic"))
    ratio = result.curve("laplace", "dimension")["rmse"] / result.curve("gaussian_analytic", "dimension")["rmse"]
    exponent, _ = fit_power_law(DIMENSIONS, ratio)
    assert exponent == pytest.approx(0.5, abs=0.15)
    exact = [nt.expected_error("laplace", int(d), 1000, 0.5, 1e-6)
             / nt.expected_error("gaussian_analytic", int(d), 1000, 0.5, 1e-6) for d in DIMENSIONS]
    assert exponent == pytest.approx(fit_power_law(DIMENSIONS, np.array(exact))[0], abs=0.02)  # 0.469 vs 0.470


def test_error_sweep_layout():
    result = lesson.error_sweep(np.array([100, 1000]), np.array([1, 8]), np.array([0.5, 2.0]), 1e-6, 50, 0,
                            mechanisms_used=("laplace", "zcdp_gaussian"))
    assert result.parameters == ("dimension", "n", "epsilon")
    assert result.methods == ("laplace", "zcdp_gaussian", "non_private")
    assert result.rmse.shape == (3, 2, 2, 2)
    assert np.all(result.trials == 50)
    non_private = result.errors[2]
    np.testing.assert_array_equal(non_private[..., 0][0, 0], non_private[..., 1][0, 0])  # data do not depend on ε


def test_error_sweep_rejects_bad_mechanisms_by_name():
    grid = (np.array([100]), np.array([4]))
    with pytest.raises(ValueError, match="epsilons"):
        lesson.error_sweep(*grid, np.array([0.5, 1.5]), 1e-6, 10, 0)  # the classical Gaussian is in by default
    with pytest.raises(ValueError, match="epsilons"):
        lesson.error_sweep(*grid, np.array([2.0]), 1e-6, 10, 0, mechanisms_used=("gaussian_classical",))
    lesson.error_sweep(*grid, np.array([1.0]), 1e-6, 10, 0)  # ε = 1 is allowed
    with pytest.raises(ValueError, match="mechanisms_used"):
        lesson.error_sweep(*grid, np.array([0.5]), 1e-6, 10, 0, mechanisms_used=("laplace", "K-norm"))


@pytest.mark.parametrize("mechanism", ["laplace", "zcdp_gaussian", "gaussian_analytic"])
def test_error_sweep_uses_the_same_noise_draws_at_every_epsilon(mechanism):
    """Common random numbers, checked exactly, per trial.

    With CRN the release error at ε is s + x(ε)·u for one sampling error s and one standard noise vector u
    shared by all ε, where x(ε) is the calibrated coordinate sd. So e(ε)² = ‖s‖² + 2x s·u + x²‖u‖², with
    ‖s‖ the non-private error of the same trial. Two ε values determine s·u and ‖u‖²; the identity must
    then predict the errors at every other ε to rounding. (With n huge the sampling error s would dominate,
    not the noise, so "the errors halve when ε doubles" is checked here in the exact form.)
    """
    n, d, delta = 50, 3, 1e-6
    epsilons = np.array([0.25, 0.5, 1.0, 2.0, 4.0])
    result = lesson.error_sweep(np.array([n]), np.array([d]), epsilons, delta, 40, seed=11,
                            mechanisms_used=(mechanism,))
    errors = np.stack([result.errors[0, 0, 0, i] for i in range(epsilons.size)])  # (ε, trials)
    sampling = result.errors[1, 0, 0, 0]
    radius = nt.clip_radius(d, n)
    x = np.array([nt.calibrate(mechanism, d, n, e, delta, radius).coordinate_sd for e in epsilons])
    rest = errors**2 - sampling**2  # = 2x s·u + x²‖u‖²
    a, b = np.linalg.solve([[2 * x[0], x[0] ** 2], [2 * x[1], x[1] ** 2]], rest[:2])
    predicted = np.sqrt(sampling**2 + 2 * x[:, None] * a + x[:, None] ** 2 * b)
    np.testing.assert_allclose(predicted, errors, rtol=1e-8)
    # the check has power: independent noise at the largest ε (trials shuffled) breaks the identity
    shuffled = errors.copy()
    shuffled[-1] = np.roll(shuffled[-1], 1)
    assert not np.allclose(predicted, shuffled, rtol=1e-3)
    if mechanism == "laplace":  # Laplace's sd is exactly ∝ 1/ε: at n = 2 the noise dominates and errors halve
        tiny = lesson.error_sweep(np.array([2]), np.array([1]), np.array([1e-6, 2e-6]), delta, 100, 0, ("laplace",))
        np.testing.assert_allclose(tiny.errors[0, 0, 0, 1] / tiny.errors[0, 0, 0, 0], 0.5, rtol=1e-3)


def test_error_sweep_is_seeded():
    args = (np.array([100, 1000]), np.array([2, 16]), np.array([0.5]), 1e-6, 30)
    np.testing.assert_array_equal(lesson.error_sweep(*args, seed=4).rmse, lesson.error_sweep(*args, seed=4).rmse)
    assert not np.array_equal(lesson.error_sweep(*args, seed=4).rmse, lesson.error_sweep(*args, seed=5).rmse)


# ------------------------------------------------------------------------------------ the page's lesson functions
def recording_runner(calls):
    """A ``run`` argument that records (function name, JSON parameters) and computes."""
    def run(function, **params):
        calls.append((function.__name__, json.loads(json.dumps(params))))  # JSON values only, or this raises
        return function(**params)
    return run


def test_page_sweeps_run_through_their_runner_with_json_parameters():
    calls = []
    by_n = lesson.error_vs_n(1.0, 1e-6, 5, 0, run=recording_runner(calls))
    by_d = lesson.error_vs_dimension(1000, 1e-6, 5, 0, run=recording_runner(calls))
    assert [name for name, _ in calls] == ["error_sweep", "error_sweep"]
    assert calls[0][1] == dict(n_values=list(lesson.N_GRID), dimensions=list(lesson.DIMENSIONS),
                               epsilons=[1.0], delta=1e-6, trials=5, seed=0, mechanisms_used=list(nt.MECHANISMS))
    assert calls[1][1]["epsilons"] == list(lesson.EPSILON_FRAMES)
    assert by_n.methods == (*nt.MECHANISMS, "non_private")  # ids, the classical Gaussian in at ε = 1
    assert by_d.methods == ("laplace", "gaussian_analytic", "zcdp_gaussian", "non_private")  # ε up to 10: not
    np.testing.assert_array_equal(by_n.rmse, lesson.error_vs_n(1.0, 1e-6, 5, 0).rmse)  # default: run_now


def test_mechanisms_for_and_nearest_frame():
    assert lesson.mechanisms_for([0.05, 1.0]) == list(nt.MECHANISMS)
    assert "gaussian_classical" not in lesson.mechanisms_for([1.5])
    for epsilon in (0.05, 0.3, 0.7, 1.0, 1.5, 3.0, 10.0):
        frame = lesson.nearest_frame(epsilon)
        assert frame in lesson.EPSILON_FRAMES
        assert all(abs(math.log(frame / epsilon)) <= abs(math.log(other / epsilon)) + 1e-12
                   for other in lesson.EPSILON_FRAMES)


def test_theory_companions_are_the_expected_error_on_the_page_grids():
    by_n = lesson.theory_vs_n("gaussian_analytic", 16, 0.5, 1e-8)
    np.testing.assert_array_equal(by_n, [nt.expected_error("gaussian_analytic", 16, n, 0.5, 1e-8)
                                         for n in lesson.N_GRID])
    by_d = lesson.theory_vs_dimension("non_private", 400, 1.0, 1e-6)
    np.testing.assert_allclose(by_d, np.sqrt(np.array(lesson.DIMENSIONS) / 400), rtol=1e-12)


def test_release_cloud_is_seeded_capped_and_spread_like_the_calibrated_noise():
    cloud = lesson.release_cloud(10**6, 1.0, 1e-6, 3)
    assert cloud["n"] == lesson.CLOUD_MAX_N
    assert cloud["points"].shape == (lesson.CLOUD_RELEASES, 2)
    assert cloud["radius"] == nt.clip_radius(2, lesson.CLOUD_MAX_N)
    assert list(cloud["releases"]) == ["laplace", "gaussian_analytic"]
    for method, releases in cloud["releases"].items():
        sd = nt.calibrate(method, 2, cloud["n"], 1.0, 1e-6, cloud["radius"]).coordinate_sd
        np.testing.assert_allclose(releases.std(axis=0), sd, rtol=0.15)
    again = lesson.release_cloud(10**6, 1.0, 1e-6, 3)
    np.testing.assert_array_equal(again["releases"]["laplace"], cloud["releases"]["laplace"])
    assert not np.array_equal(lesson.release_cloud(10**6, 1.0, 1e-6, 4)["points"], cloud["points"])


def test_profile_and_composition_curves_are_the_lesson_functions_on_the_page_grids():
    curves = lesson.profile_curves(1.0)
    exact = lesson.privacy_profiles(lesson.PROFILE_EPSILONS, 1.0)
    for method in ("laplace", "gaussian_analytic"):
        shown = exact[method] >= lesson.PROFILE_FLOOR
        np.testing.assert_array_equal(curves[method][shown], exact[method][shown])
        assert np.all(np.isnan(curves[method][~shown]))
    assert np.all(np.isnan(curves["laplace"][lesson.PROFILE_EPSILONS >= 1.0]))  # δ = 0: off the log axis
    totals = lesson.composition_curves(0.1, 1e-6)
    assert totals["advanced"][list(lesson.RELEASES).index(100)] == pytest.approx(6.3082, abs=1e-4)


def test_delta_table_rows():
    rows = lesson.delta_table(1.0, 64, 10_000)
    assert [row["δ"] for row in rows] == [f"1e-{e:02d}" for e in range(3, 13)]
    at_1e6 = rows[3]
    radius = nt.clip_radius(64, 10_000)
    gauss = nt.calibrate("gaussian_analytic", 64, 10_000, 1.0, 1e-6, radius)
    assert at_1e6["Gaussian σ for Δ₂ = 1"] == pytest.approx(4.225, abs=1e-3) == round(gauss.coordinate_sd
                                                                                      / gauss.sensitivity, 3)
    assert at_1e6["Laplace noise ÷ Gaussian noise"] == 2.68
    assert at_1e6["crossover d*"] == 8.9 and at_1e6["δ × n"] == "1e-02"


def test_complexity_rows_run_the_cover_only_in_low_dimension():
    high = lesson.complexity_rows(64, 1.0, 1e-6, 0)
    assert [row["n for RMSE ≤ 0.1"] for row in high] == ["6,400", "26,951", "12,453", "—", "—"]
    assert high[3]["how"] == "not run (d > 2)"
    low = lesson.complexity_rows(1, 1.0, 1e-6, 0)
    cover = lesson.cover_samples_needed(1, 0.1, 1.0, seed=0)
    assert low[3]["n for RMSE ≤ 0.1"] == f"{cover:,}" and low[3]["how"] == "Monte Carlo"


def test_accuracy_caption_quotes_the_expected_errors():
    caption = lesson.accuracy_caption(1.0, 1e-6, 64, 10_000)
    assert caption.startswith("At ε = 1, δ = 1e-06, d = 64, n = 10,000:")
    assert "0.245 with Laplace, 0.118 with the Gaussian, 0.08 without privacy" in caption
    for method in ("laplace", "gaussian_analytic", "non_private"):
        assert f"{nt.expected_error(method, 64, 10_000, 1.0, 1e-6):.3g}" in caption


def test_takeaways_quote_the_computed_numbers():
    calls = []
    notes = lesson.takeaways(1.0, 1e-6, 64, 10_000, 100, 50, 0, run=recording_runner(calls))
    assert len(notes) == 4 and [name for name, _ in calls] == ["error_sweep"]
    crossover = lesson.crossover_dimension(1.0, 1e-6)
    radius = nt.clip_radius(64, 10_000)
    ratio = (nt.calibrate("laplace", 64, 10_000, 1.0, 1e-6, radius).rmse
             / nt.calibrate("gaussian_analytic", 64, 10_000, 1.0, 1e-6, radius).rmse)
    assert f"d > **{crossover:.1f}**" in notes[0] and "**8.9**" in notes[0] and f"**{ratio:.2f}×**" in notes[0]
    exponent = lesson.error_ratio_exponent(10_000, 1e-6, 50, 0, 1.0)
    assert f"grows like **d{superscript(exponent, '.2f')}** over d = 1…1024" in notes[1]
    assert "At n = 10,000, ε = 1 " in notes[1]
    # docs/algorithms.md §2.4 at k = 100
    assert "basic 10.00, advanced 6.31, zCDP 5.76, exact Gaussian 4.89" in notes[2]
    assert f"from **k = {lesson.advanced_beats_basic_from(0.1, 1e-6)}** on" in notes[2]
    assert notes[3] == "δ × n = 1e-02: δ is 100× below 1/n — comfortably small."


def test_takeaways_at_other_controls():
    notes = lesson.takeaways(3.0, 1e-3, 1, 10_000, 1, 20, 1)
    exponent = lesson.error_ratio_exponent(10_000, 1e-3, 20, 1, 2.0)
    assert notes[1].startswith(f"At n = 10,000, ε = 2 the measured Laplace/Gaussian error ratio grows like "
                               f"**d{superscript(exponent, '.2f')}**")  # 3 is not a frame: the nearest is 2
    assert "After k = 1 releases" in notes[2] and "basic 0.10" in notes[2]
    assert "**too large**" in notes[3]  # δ·n = 10


# ------------------------------------------------------------------------------------ the page's question
# Predict, then reveal: the right answer agrees with what the page draws (see tests/lessons/test_questions.py).
@pytest.mark.parametrize("epsilon", [0.05, 0.3, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-6, 1e-3])
def test_crossover_answer_is_where_the_exact_error_curves_cross(epsilon, delta):
    """Pure vs approximate: the Gaussian's exact RMSE is below Laplace's exactly at the d of the figure above d*."""
    question = lesson.crossover_question(epsilon, delta)
    frame = lesson.nearest_frame(epsilon)
    laplace, gauss = (lesson.theory_vs_dimension(method, 10_000, frame, delta)
                      for method in ("laplace", "gaussian_analytic"))
    dimensions = np.array(lesson.DIMENSIONS)
    crossover = lesson.crossover_dimension(frame, delta)
    np.testing.assert_array_equal(gauss < laplace, dimensions > crossover)
    low, high = ((0, 1), (1, 4), (4, 64), (64, np.inf))[question.answer]
    assert low <= crossover < high and question.answer != 4  # "never" is never right: d/ε outgrows √d·σ
    assert f"d* = (ε·σ₁)²/2 = {crossover:.1f}" in question.explanation
