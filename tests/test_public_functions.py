"""Every public dpcore function rejects bad input with ValueError/TypeError naming the parameter.

The functions and their constraints are discovered from the modules (``@validated`` keeps them on
``func.__constraints__``), so a new public function cannot slip through: it must declare constraints
and have a valid example call below, or the first two tests fail.
"""

import concurrent.futures
import importlib
import inspect
import math
import pkgutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dpcore
from dpcore import viz
from dpcore.core.validation import Integer, Real

# Every module of the library (packages only re-export their modules' names), so a new module is covered at once.
MODULES = sorted(
    info.name.removeprefix("dpcore.")
    for info in pkgutil.walk_packages(dpcore.__path__, "dpcore.")
    if not info.ispkg and info.name != "dpcore.core.validation"
)  # the validator itself

SELECTION_FAMILY = importlib.import_module("dpcore.estimators.selection").gaussian_grid(5)
TOURNAMENT = importlib.import_module("dpcore.lessons.tournament")
TOURNAMENT_STORED = lambda function, **params: importlib.import_module("dpcore.experiments").load_or_run(  # defaults
    Path(__file__).parents[1] / "assets" / "precomputed", function, **params
)
EXAMPLE_FRAME = viz.FrameData("1", [viz.Series("Laplace", [1.0, 2.0], [0.5, 0.25])])
EXAMPLE_FIGURE = viz.line_figure(EXAMPLE_FRAME.series, x_title="n", y_title="error")
PARTITION_LESSON = importlib.import_module("dpcore.lessons.partition_rounds")
PARTITION_RUN = PARTITION_LESSON.one_run("two-level", 16, 10_000, 1.0)
PARTITION_SWEEP = PARTITION_LESSON.error_sweep([1e3, 1e4, 1e5], [16, 64], [1.0], ["log-uniform"], 2, 0, mc_samples=10)
STORED_SWEEPS = lambda function, **params: importlib.import_module("dpcore.experiments").load_or_run(  # page defaults
    Path(__file__).parents[1] / "assets" / "precomputed", function, **params
)

# The arguments the one-dimensional heavy-tailed means share.
MEAN_1D = dict(x=np.linspace(0.0, 1.0, 8), moment_k=3, mean_range=10.0, rng=0, bucket_constant=2.0)

# The arguments the partitioning-rounds runs share (rows, or simulated block counts).
ROUNDS = dict(epsilon=1.0, rng=0, beta=0.1, fractions=np.array([0.3, 0.4, 0.3]), heavy="gaussian", rho=0.5, rounds=1)

# The arguments of one audit-lab audit.
AUDIT = dict(mechanism="laplace-count", letter="A", epsilon=1.0, draws=1_000, confidence=0.95, seed=0)

# One valid call per public function: the baseline each bad value is swapped into.
VALID_CALLS = {
    "accounting.laplace_delta": dict(epsilon=0.5, scale=1.0, sensitivity=1.0),
    "accounting.gaussian_delta": dict(epsilon=0.5, sigma=2.0, l2_sensitivity=1.0),
    "accounting.gaussian_mu": dict(epsilon=1.0, delta=1e-5),
    "accounting.gaussian_epsilon": dict(mu=1.0, delta=1e-5),
    "accounting.pure_to_zcdp": dict(epsilon=1.0),
    "accounting.zcdp_to_approx": dict(rho=0.5, delta=1e-6),
    "accounting.zcdp_to_approx_optimal": dict(rho=0.5, delta=1e-6),
    "accounting.approx_to_zcdp": dict(epsilon=1.0, delta=1e-6),
    "accounting.gaussian_zcdp": dict(sigma=2.0, l2_sensitivity=1.0),
    "accounting.basic_composition": dict(epsilon=0.1, delta=0.0, releases=10),
    "accounting.advanced_composition": dict(epsilon=0.1, delta=0.0, releases=10, delta_prime=1e-6),
    "accounting.zcdp_composition": dict(rho=0.1, releases=10),
    "accounting.gaussian_composition": dict(mu=0.1, releases=10),
    "audit.clopper_pearson": dict(successes=np.array([3.0]), trials=10, confidence=0.95),
    "audit.epsilon_lower_bound": dict(
        counts=np.array([3.0]), counts_neighbour=np.array([5.0]), trials=10, delta=0.0, confidence=0.95
    ),
    "audit.threshold_counts": dict(samples=np.arange(5.0), thresholds=np.array([1.0, 2.0])),
    "audit.outcome_counts": dict(samples=np.array([0.0, 1.0, 1.0]), outcomes=3),
    "mechanisms.laplace.laplace": dict(value=0.0, sensitivity=1.0, epsilon=1.0, rng=0),
    "mechanisms.gaussian.gaussian": dict(
        value=0.0, l2_sensitivity=1.0, epsilon=1.0, delta=1e-5, rng=0, calibration="analytic"
    ),
    "mechanisms.gaussian.gaussian_sigma": dict(l2_sensitivity=1.0, epsilon=1.0, delta=1e-5, calibration="analytic"),
    "mechanisms.exponential.exponential_probabilities": dict(scores=np.array([1.0, 2.0]), epsilon=1.0, sensitivity=1.0),
    "mechanisms.exponential.exponential": dict(
        scores=np.array([1.0, 2.0]), epsilon=1.0, sensitivity=1.0, rng=0, size=3, method="gumbel"
    ),
    "mechanisms.exponential.report_noisy_max": dict(
        scores=np.array([1.0, 2.0]), epsilon=1.0, sensitivity=1.0, rng=0, size=3
    ),
    "mechanisms.histogram.laplace_histogram": dict(
        data=np.array([0.1, 0.6]), edges=np.array([0.0, 0.5, 1.0]), epsilon=1.0, rng=0
    ),
    "mechanisms.gaussian.zcdp_gaussian": dict(value=0.0, l2_sensitivity=1.0, rho=0.5, rng=0),
    "estimators.clipping.clip_to_ball": dict(rows=np.ones((3, 2)), radius=1.0, center=np.zeros(2), order=1),
    "estimators.clipping.clipped_fraction": dict(rows=np.ones((3, 2)), radius=1.0, center=np.zeros(2), order=2),
    "estimators.mean_release.clip_radius": dict(dimension=4, n_samples=100, beta=0.1),
    "estimators.mean_release.calibrate": dict(
        mechanism="gaussian_classical", dimension=4, n_samples=100, epsilon=0.5, delta=1e-6, radius=3.0
    ),
    "estimators.mean_release.private_mean": dict(
        points=np.zeros((5, 2)), epsilon=1.0, delta=1e-6, mechanism="laplace", radius=1.0, rng=0
    ),
    "estimators.mean_release.repeated_releases": dict(
        points=np.zeros((5, 2)), epsilon=1.0, delta=1e-6, mechanism="zcdp_gaussian", radius=1.0, releases=3, rng=0
    ),
    "estimators.mean_release.expected_error": dict(
        mechanism="gaussian_analytic", dimension=4, n_samples=100, epsilon=1.0, delta=1e-6, beta=0.1
    ),
    "estimators.mean_release.release_means": dict(
        mechanism="laplace",
        means=np.zeros((3, 2)),
        epsilon=1.0,
        delta=1e-6,
        rng=0,
        calibration=importlib.import_module("dpcore.estimators.mean_release").calibrate(
            "laplace", 2, 10, 1.0, 1e-6, 1.0
        ),
    ),
    "lessons.noise_tradeoff.error_sweep": dict(
        n_values=np.array([10.0, 100.0]),
        dimensions=np.array([1.0, 4.0]),
        epsilons=np.array([0.5, 1.0]),
        delta=1e-6,
        trials=5,
        seed=0,
        beta=0.1,
    ),
    "lessons.noise_tradeoff.crossover_dimension": dict(epsilon=1.0, delta=1e-6, calibration="classical"),
    "lessons.noise_tradeoff.privacy_profiles": dict(epsilons=np.array([0.0, 1.0]), noise_epsilon=1.0),
    "lessons.noise_tradeoff.composition_epsilons": dict(
        releases=np.array([1.0, 10.0]), release_epsilon=0.1, delta=1e-6
    ),
    "lessons.noise_tradeoff.advanced_beats_basic_from": dict(release_epsilon=0.1, delta=1e-6),
    "lessons.noise_tradeoff.samples_needed": dict(
        mechanism="laplace", dimension=4, target_error=0.5, epsilon=1.0, delta=1e-6, beta=0.1
    ),
    "lessons.noise_tradeoff.cover_samples_needed": dict(dimension=1, target_error=0.5, epsilon=1.0, trials=2, seed=0),
    "lessons.noise_tradeoff.sample_complexity_table": dict(
        dimension=2, target_error=0.5, epsilon=1.0, delta=1e-6, cover_samples=100
    ),
    "lessons.noise_tradeoff.mechanisms_for": dict(epsilons=[0.5, 2.0]),
    "lessons.noise_tradeoff.nearest_frame": dict(epsilon=0.3),
    "lessons.noise_tradeoff.error_vs_n": dict(epsilon=1.0, delta=1e-6, trials=2, seed=0),
    "lessons.noise_tradeoff.error_vs_dimension": dict(n=1000, delta=1e-6, trials=2, seed=0),
    "lessons.noise_tradeoff.theory_vs_n": dict(method="laplace", dimension=4, epsilon=1.0, delta=1e-6),
    "lessons.noise_tradeoff.theory_vs_dimension": dict(method="non_private", n=1000, epsilon=1.0, delta=1e-6),
    "lessons.noise_tradeoff.error_ratio_exponent": dict(n=1000, delta=1e-6, trials=2, seed=0, epsilon=1.0),
    "lessons.noise_tradeoff.release_cloud": dict(n=50, epsilon=1.0, delta=1e-6, seed=0),
    "lessons.noise_tradeoff.profile_curves": dict(noise_epsilon=1.0),
    "lessons.noise_tradeoff.composition_curves": dict(release_epsilon=0.1, delta=1e-6),
    "lessons.noise_tradeoff.complexity_rows": dict(dimension=4, epsilon=1.0, delta=1e-6, seed=0),
    "lessons.noise_tradeoff.delta_table": dict(epsilon=1.0, dimension=4, n=1000),
    "lessons.noise_tradeoff.accuracy_caption": dict(epsilon=1.0, delta=1e-6, dimension=4, n=1000),
    "lessons.noise_tradeoff.takeaways": dict(
        epsilon=1.0, delta=1e-6, dimension=4, n=1000, releases=10, trials=2, seed=0
    ),
    "estimators.cover.halfspace_depth": dict(points=np.zeros((3, 2)), candidates=np.zeros((2, 2)), directions=8),
    "estimators.cover.grid_cover": dict(radius=1.0, spacing=0.5, dimension=2),
    "estimators.cover.cover_mean": dict(x=np.zeros((5, 1)), epsilon=1.0, radius=1.0, spacing=0.5, directions=8, rng=0),
    "mechanisms.exponential.permute_and_flip": dict(
        scores=np.array([1.0, 2.0]), epsilon=1.0, sensitivity=1.0, rng=0, size=3
    ),
    "mechanisms.quantile.private_quantile": dict(
        x=np.array([0.2, 0.5]), q=0.5, epsilon=1.0, lower=0.0, upper=1.0, rng=0
    ),
    "mechanisms.quantile.quantile_density": dict(x=np.array([0.2, 0.5]), q=0.5, epsilon=1.0, lower=0.0, upper=1.0),
    "lessons.exponential_mechanism.quantile_error_sweep": dict(
        n_values=np.array([5]), epsilons=np.array([1.0]), trials=2, seed=0, q=0.5, lower=0.0, upper=1.0
    ),
    "lessons.exponential_mechanism.selection_loss_sweep": dict(
        candidate_counts=np.array([3]), epsilons=np.array([1.0]), draws=2, seed=0, design="random", gap=5.0
    ),
    "experiments.engine.run_sweep": dict(
        sample=lambda p, t, rng: rng.standard_normal((t, p["n"])),
        estimators={"mean": lambda x, p, rng: np.abs(x.mean(axis=1))},
        grid={"n": [10]},
        data_parameters=("n",),
        trials=20,
        seed=0,
        quantiles=(0.1, 0.9),
    ),
    "experiments.store.load_or_run": dict(
        directory="/nonexistent/dplab",
        function=importlib.import_module("dpcore.lessons.noise_tradeoff").error_sweep,
        n_values=[10],
        dimensions=[1],
        epsilons=[1.0],
        delta=1e-6,
        trials=2,
        seed=0,
    ),
    "experiments.engine.trials_for_budget": dict(budget=1000, max_trials=100, min_trials=10),
    "experiments.engine.join_methods": dict(results=[PARTITION_SWEEP], order=list(PARTITION_SWEEP.methods)),
    "experiments.engine.parallel_over": dict(executor=concurrent.futures.ThreadPoolExecutor(1)),
    "experiments.store.load_stored": dict(
        directory="/nonexistent/dplab", function=importlib.import_module("dpcore.lessons.noise_tradeoff").error_sweep,
        n_values=[10], dimensions=[1], epsilons=[1.0], delta=1e-6, trials=2, seed=0),
    "experiments.store.stored_calls": dict(directory="/nonexistent/dplab"),
    "experiments.store.stored_index": dict(directory="/nonexistent/dplab"),
    "core.guarantees.released": dict(),
    "core.guarantees.public": dict(),
    "core.guarantees.diagnostic": dict(),
    "core.guarantees.privacy_roles": dict(result_type=importlib.import_module("dpcore.estimators.selection").Selection),
    "experiments.fitting.fit_power_law": dict(x=np.array([1.0, 10.0]), y=np.array([1.0, 0.1])),
    "theory.nonprivate_mean_error": dict(n=100, sd=1.0, statistic="median"),
    "theory.laplace_mean_error": dict(n=100, epsilon=1.0, width=6.0, statistic="median"),
    "theory.gaussian_mean_error": dict(n=100, epsilon=1.0, delta=1e-5, l2_width=2.0, dimension=2, statistic="rmse"),
    "theory.heavy_tailed_rate": dict(n=100, epsilon=1.0, moment_k=3, constant=1.0),
    "theory.clipped_mean_private_error": dict(n=100, epsilon=1.0, moment_k=3, moment_bound=1.0),
    "theory.clipped_mean_optimal_radius": dict(n=100, epsilon=1.0, moment_k=3, moment_bound=1.0),
    "theory.exponential_mechanism_loss_bound": dict(candidates=10, epsilon=1.0, sensitivity=1.0, t=1.0),
    "lessons.truncation.bias_correction_sweep": dict(
        n_values=np.array([200]),
        epsilons=np.array([1.0]),
        delta=1e-6,
        true_mean=0.8,
        warm_start=0.0,
        survival_radius=1.5,
        trials=3,
        seed=0,
    ),
    "distributions.heavy_tailed.bulk_radius": dict(moment_k=3.0),
    "viz.figures.common.bar_figure": dict(
        categories=["a", "b"], bars={"exact": [0.4, 0.6]}, x_title="x", y_title="y", title="t", presentation=False
    ),
    "viz.figures.exponential_mechanism.direction_disk": dict(
        radius=np.array([0.5, 0.5]),
        angle=np.array([0.0, np.pi]),
        scores=np.array([1.0, 2.0]),
        marks={"best": 0.0},
        title="t",
        presentation=False,
    ),
    "viz.figures.exponential_mechanism.trajectory_figure": dict(
        points=np.zeros((3, 2)), trajectory=np.zeros((2, 2)), true_mean=np.ones(2), title="t", presentation=False
    ),
    "lessons.exponential_mechanism.loss_vs_k": dict(trials=1, seed=0),
    "lessons.audit_lab.variant_letters": dict(mechanism="gaussian-mean", seed=0),
    "lessons.audit_lab.audit_draws": dict(mechanism="laplace-count", letter="A", epsilon=1.0, draws=1_000, seed=0),
    "lessons.audit_lab.audit_run": dict(AUDIT),
    "lessons.audit_lab.audit_path": dict(AUDIT),
    "lessons.audit_lab.verdict": dict(AUDIT),
    "lessons.audit_lab.takeaways": dict(AUDIT),
    "lessons.audit_lab.draw_counts": dict(draws=1_000),
    "lessons.audit_lab.reveal": dict(mechanism="private-median", seed=1),
    "lessons.audit_lab.attack_rounds": dict(epsilon=1.0, start=0, rounds=10, seed=0),
    "lessons.audit_lab.likelihood_ratio_guess": dict(releases=np.array([50.2, 50.9])),
    "lessons.audit_lab.attacker_rates": dict(members=[True, False], guesses=[True, True], confidence=0.95),
    "lessons.audit_lab.rates_text": dict(name="you", rates=dict(rounds=2, tpr=1.0, fpr=1.0, accuracy=0.5),
                                         epsilon=1.0),
    "lessons.audit_lab.likelihood_ratio_rates": dict(epsilon=1.0),
    "lessons.audit_lab.accuracy_bound": dict(epsilon=1.0),
    "lessons.plain_words.belief_after": dict(epsilon=1.0, prior=0.25),
    "accounting.laplace_tradeoff": dict(alpha=np.array([0.1, 0.5]), epsilon=1.0),
    "accounting.gaussian_tradeoff": dict(alpha=np.array([0.1, 0.5]), mu=1.0),
    "accounting.dp_tradeoff": dict(alpha=np.array([0.1, 0.5]), epsilon=1.0, delta=1e-6),
    "lessons.noise_tradeoff.tradeoff_curves": dict(epsilon=1.0, delta=1e-6),
    "lessons.noise_tradeoff.tradeoff_caption": dict(epsilon=1.0, delta=1e-6),
    "viz.figures.noise_tradeoff.tradeoff_curves": dict(delta=1e-6, start="1", presentation=False),
    "lessons.plain_words.epsilon_in_words": dict(epsilon=1.0, delta=1e-6),
    "lessons.questions.bucket": dict(value=5.77, edges=[1.0, 3.0, 10.0, 30.0]),
    "viz.summary.figure_summary": dict(fig=EXAMPLE_FIGURE),
    "lessons.home.deployment_table": dict(),
    "lessons.noise_tradeoff.crossover_question": dict(epsilon=1.0, delta=1e-6),
    "lessons.noise_tradeoff.zcdp_gaussian_epsilon": dict(epsilon=1.0, delta=1e-6),
    "lessons.exponential_mechanism.election_question": dict(epsilon=0.1),
    "lessons.truncation.radius_question": dict(family="lomax", moment="3", n=100, epsilon=1.0),
    "lessons.tournament.price_question": dict(trials=100, seed=0, epsilon=0.1, run=TOURNAMENT_STORED),
    "lessons.partition_rounds.composition_question": dict(single=PARTITION_RUN),
    "lessons.exponential_mechanism.loss_theory": dict(epsilon=1.0),
    "lessons.exponential_mechanism.median_vs_n": dict(trials=2, seed=0),
    "lessons.exponential_mechanism.median_theory": dict(epsilon=1.0),
    "lessons.exponential_mechanism.user_level_vs_m": dict(epsilon=0.1, trials=2, seed=0),
    "lessons.exponential_mechanism.election_probabilities": dict(epsilon=0.1),
    "lessons.exponential_mechanism.election": dict(epsilon=0.1, seed=0),
    "lessons.exponential_mechanism.median_run": dict(n=10, epsilon=1.0, seed=0),
    "lessons.exponential_mechanism.sum_of_squares": dict(seed=0),
    "lessons.exponential_mechanism.savings_note": dict(alpha=0.05, per_user=20),
    "lessons.exponential_mechanism.median_note": dict(n=10, epsilon=1.0, seed=0),
    "lessons.exponential_mechanism.sdp_note": dict(seed=0),
    "lessons.exponential_mechanism.takeaways": dict(epsilon=0.1, n=10, trials=2, seed=0),
    "viz.figures.exponential_mechanism.election_bars": dict(epsilon=0.1, seed=0, presentation=False),
    "viz.figures.exponential_mechanism.election_sweep": dict(start="0.1", presentation=False),
    "viz.figures.exponential_mechanism.user_level_errors": dict(trials=2, seed=0, start="0.1", presentation=False),
    "viz.figures.exponential_mechanism.selection_loss": dict(trials=1, seed=0, start="1", presentation=False),
    "viz.figures.exponential_mechanism.median_score": dict(n=10, epsilon=1.0, seed=0, presentation=False),
    "viz.figures.exponential_mechanism.median_density": dict(n=10, epsilon=1.0, seed=0, presentation=False),
    "viz.figures.exponential_mechanism.median_error": dict(trials=2, seed=0, start="0.1", presentation=False),
    "viz.figures.exponential_mechanism.sdp_disk": dict(seed=0, presentation=False),
    "viz.figures.exponential_mechanism.sdp_path": dict(seed=0, presentation=False),
    "viz.style.method_color": dict(name="Laplace"),
    "viz.style.template": dict(presentation=True),
    "viz.style.wrapped": dict(text="a title long enough to wrap", width=10),
    "viz.style.figure_title": dict(text="Error vs n"),
    "viz.style.slim_colorbar": dict(title="score"),
    "viz.style.colorscale": dict(name="Blues"),
    "viz.style.template_dict": dict(presentation=True),
    "viz.plotly_dict.dictionaries": dict(),
    "viz.plotly_dict.figure": dict(data=[dict(type="bar", x=[1], y=[2])], layout=dict(template="plotly")),
    "viz.plotly_dict.plotly_dict": dict(data=[dict(type="bar", x=[1], y=[2])], layout=dict(template="plotly"),
                                        frames=[dict(name="a", data=[dict(type="bar", x=[1], y=[3])])]),
    "viz.animation.animated_sweep": dict(
        frames=[EXAMPLE_FRAME],
        x_title="n",
        y_title="error",
        frame_title="d",
        title="t",
        log_x=True,
        log_y=True,
        presentation=False,
    ),
    "viz.animation.line_figure": dict(
        series=EXAMPLE_FRAME.series,
        x_title="n",
        y_title="error",
        title="t",
        log_x=False,
        log_y=False,
        presentation=False,
    ),
    "viz.export.figure_html": dict(fig=EXAMPLE_FIGURE),
    "viz.figures.truncation.clipping_histogram": dict(
        sample=np.array([0.0, 1.0, 5.0]), low=-1.0, high=2.0, means={"true mean": 0.5}, title="t", presentation=False
    ),
    "viz.animation.theory_series": dict(method="Laplace", x=np.array([1.0, 2.0]), y=np.array([0.5, 0.25])),
    "viz.export.figure_table_csv": dict(fig=EXAMPLE_FIGURE),
    "viz.figures.tournament.scheffe_figure": dict(
        sample=np.array([0.0, 1.0, 2.0]),
        curves={"H": (np.array([0.0, 2.0]), np.array([0.1, 0.2]))},
        shaded=[(1.0, np.inf)],
        shaded_name="W",
        bins=5,
        title="t",
        presentation=True,
    ),
    "viz.figures.tournament.win_matrix_figure": dict(
        matrix=np.array([[0.0, 1.0], [-1.0, 0.0]]), labels=["a", "b"], title="t", presentation=False
    ),
    "viz.figures.tournament.selection_figure": dict(
        positions=np.array([0.0, 1.0]),
        scores=np.array([1.0, 2.0]),
        probabilities=np.array([0.4, 0.6]),
        marks={"truth": 0.5},
        x_title="μ",
        title="t",
        presentation=False,
    ),
    "viz.figures.tournament.grid_scores_figure": dict(
        xs=np.array([0.0, 1.0]),
        ys=np.array([0.0, 1.0]),
        values=np.ones((2, 2)),
        marks={"truth": (0.5, 0.5)},
        value_title="score",
        title="t",
        presentation=False,
    ),
    "viz.figures.tournament.one_contest": dict(a=0.3, b=0.8, k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "viz.figures.tournament.whole_tournament": dict(k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "viz.figures.tournament.selection_scores": dict(k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "viz.figures.tournament.plane_map": dict(shown="score", epsilon=1.0, seed=0, presentation=False),
    "viz.figures.tournament.tv_vs_n": dict(
        trials=100, seed=0, epsilon=0.1, start="41", presentation=False, run=TOURNAMENT_STORED
    ),
    "viz.figures.tournament.price_of_k": dict(
        trials=100, seed=0, start="0.1", presentation=False, run=TOURNAMENT_STORED
    ),
    "viz.figures.tournament.users_needed": dict(seed=0, start="0.1", presentation=False, run=TOURNAMENT_STORED),
    "viz.figures.tournament.user_tv": dict(seed=0, epsilon=0.1, start="16", presentation=False, run=TOURNAMENT_STORED),
    "viz.figures.partition_rounds.partition_rounds_figure": dict(
        truth=np.array([0.4, 0.1, 0.01]),
        result=importlib.import_module("dpcore.estimators.partition_rounds").simulate_partition_rounds(
            np.array([0.4, 0.1, 0.01]), 30, 1.0, rng=0, rounds=1
        ),
        title="t",
        presentation=False,
    ),
    "viz.animation.sweep_frames": dict(
        result=importlib.import_module("dpcore.lessons.noise_tradeoff").error_sweep(
            np.array([10.0, 100.0]), np.array([1.0, 2.0]), np.array([1.0]), 1e-6, 5, 0
        ),
        x="n",
        frame="dimension",
        fixed={"epsilon": 1.0},
        statistic="rmse",
    ),
    "viz.figures.noise_tradeoff.release_clouds": dict(
        points=np.zeros((3, 2)),
        center=np.zeros(2),
        radius=1.0,
        releases={"Laplace": np.zeros((4, 2))},
        title="t",
        presentation=False,
    ),
    "viz.figures.noise_tradeoff.clouds": dict(n=50, epsilon=1.0, delta=1e-6, seed=0, presentation=False),
    "viz.figures.noise_tradeoff.error_vs_n": dict(
        epsilon=1.0, delta=1e-6, trials=2, seed=0, dimension=8, presentation=False
    ),
    "viz.figures.noise_tradeoff.error_vs_dimension": dict(
        n=1000, delta=1e-6, trials=2, seed=0, epsilon=0.3, presentation=False
    ),
    "viz.figures.noise_tradeoff.privacy_profiles": dict(presentation=False),
    "viz.figures.noise_tradeoff.composition": dict(delta=1e-6, releases=100, presentation=False),
    "estimators.heavy_tailed_mean.clipped_laplace_mean": dict(
        x=np.array([0.0, 1.0, 5.0]), epsilon=1.0, low=0.0, high=2.0, rng=0
    ),
    "estimators.heavy_tailed_mean.private_range": dict(
        x=np.array([0.1, 0.2, 0.3]), epsilon=1.0, alpha=0.5, moment_k=3, mean_range=10.0, bucket_constant=2.0, rng=0
    ),
    "estimators.heavy_tailed_mean.private_mean_1d": dict(MEAN_1D, epsilon=1.0, alpha=0.5, groups=2),
    "estimators.heavy_tailed_mean.private_mean_1d_zcdp": dict(MEAN_1D, rho=0.5, alpha=0.5, groups=2),
    "estimators.heavy_tailed_mean.private_mean_1d_approx": dict(MEAN_1D, epsilon=1.0, delta=1e-6, alpha=None, groups=1),
    "estimators.heavy_tailed_mean.private_mean_nd_zcdp": dict(
        x=np.zeros((8, 2)), rho=0.5, moment_k=3, mean_range=10.0, rng=0, alpha=0.5
    ),
    "estimators.heavy_tailed_mean.private_mean_nd_pure": dict(
        x=np.zeros((8, 2)), epsilon=1.0, moment_k=3, mean_range=10.0, rng=0, alpha=None
    ),
    "estimators.heavy_tailed_mean.default_alpha": dict(n=100, epsilon=1.0, moment_k=3),
    "lessons.truncation.error_sweep": dict(
        family="lomax",
        moments=np.array([3.0, math.inf]),
        n_values=np.array([100.0]),
        epsilon=1.0,
        budget=2000,
        seed=0,
        mean_range=100.0,
    ),
    "lessons.truncation.moment_order": dict(moment="inf"),
    "lessons.truncation.law": dict(family="two-point", moment="3"),
    "lessons.truncation.sweep_budget": dict(trials=20),
    "lessons.truncation.bias_frame": dict(epsilon=0.7),
    "lessons.truncation.one_run": dict(family="lomax", moment="3", n=100, radius=2.0, epsilon=1.0, seed=0),
    "lessons.truncation.window_caption": dict(family="lomax", moment="3", n=100, radius=2.0, epsilon=1.0, seed=0),
    "lessons.truncation.bias_noise_tradeoff": dict(family="lomax", moment="3", n=100, epsilon=1.0),
    "lessons.truncation.error_vs_n": dict(family="lomax", epsilon=1.0, trials=2, seed=0),
    "lessons.truncation.rate_companions": dict(epsilon=1.0, moment="3"),
    "lessons.truncation.theory_slope": dict(moment="3"),
    "lessons.truncation.private_slope": dict(
        result=importlib.import_module("dpcore.lessons.truncation").error_sweep(
            "lomax", [3.0], [100, 1000], 1.0, 2000, 0
        ),
        moment="3",
    ),
    "lessons.truncation.slope_note": dict(family="lomax", epsilon=1.0, trials=2, seed=0, moment="3"),
    "lessons.truncation.bias_correction": dict(trials=2, seed=0),
    "lessons.truncation.bias_companions": dict(epsilon=1.0),
    "lessons.truncation.takeaways": dict(family="lomax", moment="3", n=100, radius=2.0, epsilon=1.0, seed=0, trials=2),
    "viz.figures.truncation.clipping_window": dict(
        family="lomax", moment="3", n=100, radius=2.0, epsilon=1.0, seed=0, presentation=False
    ),
    "viz.figures.truncation.bias_noise_tradeoff": dict(
        family="lomax", moment="3", n=100, radius=2.0, epsilon=1.0, presentation=False
    ),
    "viz.figures.truncation.error_vs_n": dict(
        family="lomax", epsilon=1.0, trials=2, seed=0, start="3", presentation=False
    ),
    "viz.figures.truncation.bias_correction": dict(trials=2, seed=0, start="1", presentation=False),
    "distributions.heavy_tailed.heavy_tailed": dict(family="lomax", moment_k=3, mean=0.0, shape=4.0),
    "distributions.heavy_tailed.lemma31_bias_bound": dict(moment_k=3, tau=0.01, constant=6.0),
    "distributions.heavy_tailed.tail_bias_bound": dict(moment_k=3, distance=2.0, moment_bound=1.0),
    "distributions.heavy_tailed.optimal_window": dict(
        dist=importlib.import_module("dpcore.distributions.heavy_tailed").heavy_tailed("lomax", 3),
        n=1000,
        epsilon=1.0,
        center=0.0,
        radii=np.array([1.0, 2.0]),
    ),
    "distributions.heavy_tailed.bias_noise_curve": dict(
        dist=importlib.import_module("dpcore.distributions.heavy_tailed").heavy_tailed("lomax", 3),
        n=1000,
        epsilon=1.0,
        radii=np.array([1.0, 2.0]),
        center=0.0,
    ),
    "estimators.truncated_mle.survival_mass": dict(mean_offset=1.0, survival_radius=1.5, dimension=1),
    "estimators.truncated_mle.target_size": dict(n=4000, mean_offset_bound=1.0, survival_radius=1.5, dimension=1),
    "estimators.truncated_mle.fixed_size": dict(
        points=np.zeros((5, 2)), warm_start=np.zeros(2), survival_radius=1.0, target_size=3, rng=0
    ),
    "estimators.truncated_mle.truncated_mean_map": dict(mu=0.5, warm_start=0.0, survival_radius=1.5),
    "estimators.truncated_mle.naive_truncated_mean": dict(
        x=np.zeros(20), epsilon=1.0, delta=1e-6, warm_start=0.0, survival_radius=1.5, rng=0, mean_offset_bound=1.0
    ),
    "estimators.truncated_mle.truncated_mle_mean": dict(
        x=np.zeros(20), epsilon=1.0, delta=1e-6, warm_start=0.0, survival_radius=1.5, rng=0, mean_offset_bound=1.0
    ),
    "estimators.truncated_mle.truncated_dpgd_mean": dict(
        x=np.zeros((20, 2)),
        epsilon=1.0,
        delta=1e-6,
        warm_start=np.zeros(2),
        survival_radius=2.0,
        rng=0,
        mean_offset_bound=1.0,
        steps=2,
        learning_rate=1.0,
        monte_carlo=100,
    ),
    "estimators.user_level.default_grid": dict(size=11),
    "estimators.user_level.threshold_data": dict(users=3, per_user=2, threshold=0.37, rng=0, trials=2),
    "estimators.user_level.user_error_counts": dict(
        x=np.array([[0.1, 0.5], [0.6, 0.9]]), y=np.array([[0.0, 1.0], [1.0, 1.0]]), grid=np.array([0.0, 0.5, 1.0])
    ),
    "estimators.user_level.losses": dict(counts=np.array([[0.0, 2.0], [1.0, 0.0]]), kind="tau", tau=1.5),
    "estimators.user_level.loss_sensitivity": dict(kind="tau", per_user=5, tau=2.0),
    "estimators.user_level.select_threshold": dict(
        x=np.array([[0.1, 0.5], [0.6, 0.9]]),
        y=np.array([[0.0, 1.0], [1.0, 1.0]]),
        epsilon=1.0,
        kind="tau",
        tau=2.0,
        grid=np.array([0.0, 0.5, 1.0]),
        rng=0,
    ),
    "estimators.user_level.users_needed": dict(
        alpha=0.05, per_user=20, epsilon=1.0, candidates=101, beta=0.1, kind="group"
    ),
    "estimators.user_level.savings_factor": dict(alpha=0.05, per_user=20),
    "lessons.exponential_mechanism.user_level_sweep": dict(
        per_user_values=np.array([1.0, 2.0]), users=np.array([5.0]), epsilon=1.0, trials=3, seed=0
    ),
    "estimators.sdp.bucket_means": dict(points=np.arange(16.0).reshape(8, 2), buckets=4),
    "estimators.sdp.exact_far_count": dict(
        bucket_means=np.eye(4, 2), center=np.zeros(2), radius=0.5, direction=np.array([1.0, 0.0])
    ),
    "estimators.sdp.sdp_direction_score": dict(
        bucket_means=np.eye(4, 2), center=np.zeros(2), radius=0.5, direction=np.array([0.5, 0.0]), solver="CLARABEL"
    ),
    "estimators.sdp.free_sdp_value": dict(bucket_means=np.eye(4, 2), center=np.zeros(2), radius=0.5, solver="CLARABEL"),
    "estimators.sdp.polar_score_grid": dict(
        bucket_means=np.eye(4, 2), center=np.zeros(2), radius=0.5, radii_count=1, angles=3, solver="SCS"
    ),
    "estimators.sdp.sample_direction": dict(
        scores=np.array([1.0, 2.0]), weights=np.array([1.0, 1.0]), points=np.eye(2), epsilon=1.0, rng=0, size=2
    ),
    "estimators.sdp.iterative_mean_2d": dict(
        points=np.ones((8, 2)),
        epsilon=1.0,
        buckets=4,
        steps=1,
        initial=np.zeros(2),
        radius=0.5,
        max_step=1.0,
        rng=0,
        radii_count=1,
        angles=3,
        solver="SCS",
    ),
    "distributions.binary_product.marginal_profile": dict(profile="power law", dimension=4, exponent=1.5),
    "distributions.binary_product.sample_rows": dict(p=np.array([0.1, 0.4]), n=3, rng=0, trials=2),
    "distributions.binary_product.column_counts": dict(p=np.array([0.1, 0.4]), n=3, rng=0, trials=2),
    "distributions.binary_product.kl_divergence": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "distributions.binary_product.chi_squared": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "distributions.binary_product.bhattacharyya": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "distributions.binary_product.hellinger": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "distributions.binary_product.tv_bounds": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "distributions.binary_product.tv_exact": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3])),
    "distributions.binary_product.tv_monte_carlo": dict(
        p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3]), samples=10, rng=0
    ),
    "distributions.binary_product.tv_distance": dict(p=np.array([0.1, 0.4]), q=np.array([0.2, 0.3]), samples=10, rng=0),
    "estimators.partition_rounds.block_layout": dict(
        n=100, dimension=4, beta=0.1, fractions=np.array([0.3, 0.4, 0.3]), rounds=2
    ),
    "estimators.partition_rounds.bernstein_bound": dict(mean=1.0, variance=1.0, width=1.0, log_term=2.0),
    "estimators.partition_rounds.clipped_laplace_means": dict(rows=np.ones((3, 2)), epsilon=1.0, radius=1.0, rng=0),
    "estimators.partition_rounds.partition_rounds": dict(ROUNDS, x=np.zeros((30, 4))),
    "estimators.partition_rounds.simulate_partition_rounds": dict(ROUNDS, p=np.array([0.4, 0.1, 0.01]), n=30, trials=2),
    "estimators.partition_rounds.simulate_estimators": dict(
        p=np.array([0.4, 0.1, 0.01]), n=30, epsilon=1.0, rng=0, delta=1e-6, beta=0.1
    ),
    "estimators.partition_rounds.noiseless_partition": dict(p=np.array([0.5, 0.1, 0.01]), rounds=3),
    "estimators.partition_rounds.baseline_estimates": dict(
        x=np.zeros((10, 3)), epsilon=1.0, method="oracle_laplace", rng=0, delta=1e-6, beta=0.1, total_mass=1.0
    ),
    "lessons.partition_rounds.error_sweep": dict(
        n_values=np.array([100.0]),
        dimensions=np.array([4.0]),
        epsilons=np.array([1.0]),
        profiles=["log-uniform"],
        trials=2,
        seed=0,
        metric="tv",
        delta=1e-6,
        beta=0.1,
        methods=("naive_laplace", "partition_pure"),
        mc_samples=10,
    ),
    "estimators.selection.gaussian_grid": dict(k=5, low=-1.0, high=1.0, scale=1.0),
    "estimators.selection.gaussian_mean_scale_grid": dict(means=np.array([0.0, 1.0]), scales=np.array([1.0, 2.0])),
    "estimators.selection.simplex_cover": dict(domain=3, resolution=2),
    "lessons.tournament.spaced_grid": dict(k=11),
    "estimators.selection.contest_parameters": dict(alpha=0.05),
    "estimators.selection.win_matrix": dict(family=SELECTION_FAMILY, x=np.zeros(5)),
    "estimators.selection.tournament_winner": dict(family=SELECTION_FAMILY, x=np.zeros(5)),
    "estimators.selection.minimum_distance": dict(family=SELECTION_FAMILY, x=np.zeros(5)),
    "estimators.selection.scheffe_scores": dict(family=SELECTION_FAMILY, x=np.zeros(5), alpha=0.05),
    "estimators.selection.user_scheffe_scores": dict(family=SELECTION_FAMILY, x=np.zeros((4, 2)), alpha=0.05, tau=1.0),
    "estimators.selection.private_select": dict(
        family=SELECTION_FAMILY, x=np.zeros((4, 2)), epsilon=1.0, alpha=0.05, rng=0, level="user", tau=1.0
    ),
    "estimators.selection.guarantee_alpha": dict(n=np.array([100.0, 1000.0]), k=41, epsilon=1.0, beta=0.1),
    "estimators.selection.users_needed_theory": dict(
        per_user=np.array([1.0, 100.0]), k=41, alpha=0.05, epsilon=1.0, beta=0.1
    ),
    "lessons.tournament.selection_sweep": dict(
        n_values=np.array([20.0]),
        ks=np.array([21.0]),
        epsilons=np.array([1.0]),
        trials=2,
        seed=0,
        alpha=0.05,
        truth_mean=0.33,
    ),
    "lessons.tournament.user_level_sweep": dict(
        user_counts=np.array([5.0]),
        per_user=np.array([2.0]),
        epsilons=np.array([1.0]),
        trials=2,
        seed=0,
        alpha=0.05,
        hypotheses=21,
        truth_mean=0.33,
    ),
    "lessons.tournament.frame_epsilon": dict(epsilon=0.2, user_level=True),
    "lessons.tournament.one_run": dict(k=21, n=50, epsilon=1.0, seed=0),
    "lessons.tournament.contest": dict(a=0.3, b=0.8, k=21, n=50, epsilon=1.0, seed=0),
    "lessons.tournament.run_caption": dict(k=21, n=50, epsilon=1.0, seed=0),
    "lessons.tournament.plane_run": dict(epsilon=1.0, seed=0),
    "lessons.tournament.guarantee": dict(n_values=np.array([100.0]), k=41, epsilon=1.0),
    "lessons.tournament.privacy_term": dict(ks=np.array([21.0]), epsilon=1.0),
    "lessons.tournament.item_sweep": dict(trials=100, seed=0, run=TOURNAMENT_STORED),
    "lessons.tournament.user_sweep": dict(seed=0, run=TOURNAMENT_STORED),
    "lessons.tournament.needed_by_k": dict(
        result=TOURNAMENT.item_sweep(100, 0, run=TOURNAMENT_STORED), epsilon=0.1, method="private_selection"
    ),
    "lessons.tournament.users_needed": dict(
        result=TOURNAMENT.user_sweep(0, run=TOURNAMENT_STORED), method="user_level_clipped", epsilon=0.1
    ),
    "lessons.tournament.price_of_k": dict(trials=100, seed=0, epsilon=0.1, run=TOURNAMENT_STORED),
    "lessons.tournament.k_growth": dict(trials=100, seed=0, epsilon=0.1, run=TOURNAMENT_STORED),
    "lessons.tournament.users_needed_curves": dict(seed=0, epsilon=0.1, run=TOURNAMENT_STORED),
    "lessons.tournament.takeaways": dict(
        k=41, n=300, epsilon=0.1, per_user=16, trials=100, seed=0, run=TOURNAMENT_STORED
    ),
    "estimators.selection.ksu20_scores": dict(
        points=np.zeros((10, 2)), cover=np.eye(2), alpha=0.05, groups=5, clip=4.0
    ),
    "estimators.selection.ksu20_tournament": dict(
        points=np.zeros((10, 2)), cover=np.eye(2), epsilon=1.0, alpha=0.05, groups=5, clip=4.0, rng=0
    ),
    "experiments.fitting.samples_needed": dict(
        n_values=np.array([10.0, 100.0]), errors=np.array([0.5, 0.1]), target=0.2
    ),
    "lessons.partition_rounds.rate_curve": dict(
        dimension=4, n_values=np.array([10.0, 100.0]), epsilon=1.0, noise_power=1.5, constant=1.0
    ),
    "lessons.partition_rounds.fit_rate_constant": dict(
        dimension=4, n_values=np.array([100.0, 1000.0]), epsilon=1.0, errors=np.array([0.3, 0.1]), noise_power=1.5
    ),
    "lessons.partition_rounds.nearest_n": dict(n=15_000),
    "lessons.partition_rounds.one_run": dict(
        profile="two-level", dimension=16, n=10_000, epsilon=1.0, delta=1e-6, seed=0
    ),
    "lessons.partition_rounds.one_run_caption": dict(
        profile="two-level", dimension=16, n=10_000, epsilon=1.0, delta=1e-6, seed=0
    ),
    "lessons.partition_rounds.run_caption": dict(single=PARTITION_RUN),
    "lessons.partition_rounds.block_table": dict(single=PARTITION_RUN),
    "lessons.partition_rounds.block_summary": dict(single=PARTITION_RUN),
    "lessons.partition_rounds.distance_table": dict(single=PARTITION_RUN),
    "lessons.partition_rounds.sweep_vs_n": dict(
        profile="two-level", dimension=16, delta=1e-6, trials=2, seed=0, metric="kl"
    ),
    "lessons.partition_rounds.sweep_vs_dimension": dict(
        profile="log-uniform", epsilon=1.0, delta=1e-6, trials=30, seed=0, run=STORED_SWEEPS
    ),
    "lessons.partition_rounds.sweep_by_profile": dict(dimension=16, epsilon=1.0, delta=1e-6, trials=2, seed=0),
    "lessons.partition_rounds.rate_curves": dict(
        result=PARTITION_SWEEP, profile="log-uniform", dimension=16, epsilon=1.0
    ),
    "lessons.partition_rounds.sample_complexity": dict(result=PARTITION_SWEEP, epsilon=1.0),
    "lessons.partition_rounds.complexity_table": dict(
        profile="log-uniform", epsilon=1.0, delta=1e-6, trials=30, seed=0, run=STORED_SWEEPS
    ),
    "lessons.partition_rounds.takeaways": dict(
        profile="log-uniform", n=1_000_000, epsilon=1.0, delta=1e-6, trials=30, seed=0, run=STORED_SWEEPS
    ),
    "viz.figures.partition_rounds.rounds": dict(
        profile="two-level", dimension=16, n=10_000, epsilon=1.0, delta=1e-6, seed=0, presentation=False
    ),
    "viz.figures.partition_rounds.error_vs_n": dict(
        profile="two-level", dimension=16, delta=1e-6, trials=2, seed=0, metric="tv", epsilon=0.5, presentation=False
    ),
    "viz.figures.partition_rounds.error_vs_dimension": dict(
        profile="log-uniform",
        epsilon=1.0,
        delta=1e-6,
        trials=30,
        seed=0,
        n=15_000,
        presentation=False,
        run=STORED_SWEEPS,
    ),
    "viz.figures.partition_rounds.error_by_profile": dict(
        dimension=16, epsilon=1.0, delta=1e-6, trials=2, seed=0, profile="all tiny", presentation=False
    ),
    "core.randomness.as_generator": dict(rng=0),
    "lessons.methods.label": dict(method="ksu20"),
    "lessons.grids.log_grid": dict(low=0.5, high=3.0, mantissas=np.array([1.0, 2.0, 5.0]), integer=False),
    "lessons.grids.nearest": dict(frames=(0.1, 0.3, 1.0), value=0.5),
    "experiments.store.rerun_stored": dict(
        path=sorted(
            (Path(__file__).parents[1] / "assets" / "precomputed").glob("*.npz"), key=lambda p: p.stat().st_size
        )[0]
    ),
    "lessons.home.neighbouring_densities": dict(epsilon=1.0, count=42),
    "lessons.home.takeaways": dict(epsilon=1.0),
    "viz.figures.home.neighbouring_densities": dict(start="1", presentation=False),
    "viz.figures.audit_lab.audit_histograms": dict(AUDIT, start=None, presentation=False),
    "viz.figures.audit_lab.bound_vs_draws": dict(AUDIT, presentation=False),
    "viz.figures.audit_lab.attacker_plane": dict(epsilon=1.0, players={"you (2 rounds)": [0.5, 1.0]},
                                                 presentation=False),
    "experiments.store.compute": dict(
        function=importlib.import_module("dpcore.lessons.exponential_mechanism").quantile_error_sweep,
        n_values=[10],
        epsilons=[1.0],
        trials=2,
        seed=0,
    ),
    "core.randomness.spawn": dict(rng=0, count=2),
    "core.randomness.child_generator": dict(seed=0),
}


def public_functions():
    """(qualified name, function) for every public function of the library modules."""
    found = {}
    for module_name in MODULES:
        module = importlib.import_module(f"dpcore.{module_name}")
        for name in getattr(module, "__all__", ()):
            item = getattr(module, name)
            if callable(item) and not isinstance(item, type):
                found[f"{module_name}.{name}"] = item
    return found


VALID_CALLS["estimators.sdp.sdp_direction_score"] = VALID_CALLS[
    "estimators.sdp.sdp_direction_score"
]  # re-exported entry point
FUNCTIONS = public_functions()
CASES = [(name, param) for name, func in FUNCTIONS.items() for param in getattr(func, "__constraints__", {})]


def test_every_public_function_declares_its_constraints():
    undeclared = [name for name, func in FUNCTIONS.items() if not hasattr(func, "__constraints__")]
    assert undeclared == []


def test_every_public_function_has_a_valid_example_call():
    assert sorted(set(FUNCTIONS) - set(VALID_CALLS)) == []


@pytest.mark.parametrize("name", sorted(VALID_CALLS))
def test_valid_example_call_succeeds(name):
    FUNCTIONS[name](**VALID_CALLS[name])


def bad_values(constraint):
    """A strategy of values ``constraint`` must reject: its own list plus out-of-range draws."""
    listed = st.sampled_from(constraint.bad_values())
    if isinstance(constraint, Real) and constraint.low is not None:
        edge = st.floats(
            max_value=constraint.low, exclude_max=not constraint.low_open, allow_nan=False, allow_infinity=False
        )
        return st.one_of(listed, edge)
    if isinstance(constraint, Real) and constraint.high is not None:
        edge = st.floats(
            min_value=constraint.high, exclude_min=not constraint.high_open, allow_nan=False, allow_infinity=False
        )
        return st.one_of(listed, edge)
    if isinstance(constraint, Integer) and constraint.low is not None:
        return st.one_of(listed, st.integers(max_value=constraint.low - 1))
    return listed


@pytest.mark.parametrize("name, param", CASES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bad_input_is_rejected_with_a_message_naming_the_parameter(name, param, data):
    func = FUNCTIONS[name]
    none_is_default = inspect.signature(func).parameters[param].default is None
    bad = data.draw(
        bad_values(func.__constraints__[param]).filter(lambda v: not (v is None and none_is_default)), label=param
    )
    with pytest.raises((ValueError, TypeError)) as caught:
        func(**{**VALID_CALLS[name], param: bad})
    assert param in str(caught.value)
