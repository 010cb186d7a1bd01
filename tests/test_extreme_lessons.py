"""The lessons at extreme but valid privacy parameters: a valid output, or a ValueError naming the parameter.

Every public function of ``dpcore/lessons`` that takes ε or δ (``epsilon``, ``delta``, ``release_epsilon``,
``noise_epsilon``; no lesson takes ρ) is called with ε log-uniform in [1e-9, 1e6] and δ log-uniform in
[1e-300, 0.5], far beyond the pages' sliders. Each call must either return a valid output — every float finite
(NaN or ±inf only where the docstring names the reason: listed per function below), probabilities and TV distances
in [0, 1], sample sizes and scales positive, texts (captions, takeaways, notes) without "nan", "inf" or a raw Python
repr — or raise a ``ValueError`` whose message names the privacy parameter. Never a bare arithmetic error
(ZeroDivisionError, OverflowError, FloatingPointError) and never a RuntimeWarning: warnings are errors here.

Functions whose ε must be one of the page's frames (a ``Choice`` validator, or the ε axis of a sweep result) are
drawn half from their frames, half from the whole range: off the frames they must refuse, naming ``epsilon``.

Monte Carlo sweeps run at the smallest sizes their signatures allow (one trial, the smallest n and d), and the lessons'
page-sized sweeps through a ``run`` that trims what the page does not let the caller choose (the tournament's fixed
40 user-level trials, the partition sweeps' 2,000 Monte Carlo TV points) and shares one sweep between the functions
that read it. Every random call is seeded. Concrete values that failed before their fix are kept as regressions at the
end.
"""

import functools
import itertools
import math
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcore.experiments import run_now
from dpcore.lessons import class_poll as cp
from dpcore.lessons import exponential_mechanism as em
from dpcore.lessons import home
from dpcore.lessons import noise_tradeoff as nt
from dpcore.lessons import partition_rounds as pr
from dpcore.lessons import tournament as tn
from dpcore.lessons import truncation as tr


def log_uniform(low: float, high: float):
    return st.floats(math.log10(low), math.log10(high)).map(lambda e: 10.0**e)


EPSILONS, DELTAS = log_uniform(1e-9, 1e6), log_uniform(1e-300, 0.5)
ANALYTIC = settings(max_examples=20, deadline=None)  # closed forms and tables: milliseconds a call
ONE_RUN = settings(max_examples=8, deadline=None)  # one seeded dataset and its releases
SWEEP = settings(max_examples=4, deadline=None)  # Monte Carlo sweeps, at their smallest sizes


def on_frames(frames) -> st.SearchStrategy:
    """ε for a function that takes only the page's frames: a frame, or anything in the range (to be refused)."""
    return st.one_of(st.sampled_from(tuple(frames)), EPSILONS)


# ---------------------------------------------------------------------------------------------------- the rule
NAN_OR_INF = re.compile(r"(?<![A-Za-z])(nan|inf|infinity)(?![A-Za-z])", re.IGNORECASE)
RAW_REPR = re.compile(r"np\.\w+\(|array\(|dtype=|<[\w.]+ object at|\bNone\b|\{'|\['")
LONG_NUMBER = re.compile(r"\d(,?\d){19,}")  # e.g. 1/δ at δ = 1e-300 written out in full: 300 digits


@dataclass(frozen=True)
class Case:
    """One lesson function, how the test calls it, and what its output must satisfy.

    ``call(epsilon, delta, draw)`` calls the function (``draw`` draws its other arguments); ``names`` are its privacy
    parameters as it names them (a refusal must name one). The other fields are regular expressions over the paths
    of the output's leaves (e.g. ``out['standard']``, ``out.distances[0].value``): ``unit`` in [0, 1], ``positive``
    > 0, ``nonnegative`` >= 0, ``nan`` / ``inf`` where the docstring documents NaN / ±inf; ``text_ok`` is removed
    from texts before the check (a label the page itself shows, such as the moment order "k = inf").
    """

    name: str
    call: Callable
    names: tuple[str, ...] = ("epsilon",)
    epsilons: st.SearchStrategy | None = EPSILONS
    deltas: st.SearchStrategy | None = None
    unit: str = "$^"
    positive: str = "$^"
    nonnegative: str = "$^"
    nan: str = "$^"
    inf: str = "$^"
    text_ok: str = "$^"
    check: Callable | None = None

    def __repr__(self) -> str:
        return self.name


def leaves(value, path: str = "out"):
    """(path, leaf) for every number, numeric array and text inside ``value`` (dicts, sequences, dataclasses)."""
    if isinstance(value, str):
        yield path, value
    elif value is None or isinstance(value, bool | np.bool_):
        return
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from leaves(item, f"{path}[{key!r}]")
    elif is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            yield from leaves(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}[{index}]")
    elif isinstance(value, np.ndarray) and value.dtype == object:
        for index, item in enumerate(value.flat):
            yield from leaves(item, f"{path}[{index}]")
    elif isinstance(value, np.ndarray) and value.dtype.kind in "US":
        for index, item in enumerate(value.flat):
            yield f"{path}[{index}]", str(item)
    elif isinstance(value, np.ndarray | int | float | np.number):
        yield path, value
    else:
        raise AssertionError(f"{path}: an output of type {type(value).__name__} this test cannot walk")


def assert_valid(case: Case, output) -> None:
    """The output rule of the module docstring, leaf by leaf."""
    for path, leaf in leaves(output):
        if isinstance(leaf, str):
            text = re.sub(case.text_ok, "", leaf)
            assert not NAN_OR_INF.search(text), f"{case.name}: {path} shows a non-number: {leaf!r}"
            assert not RAW_REPR.search(text), f"{case.name}: {path} shows a raw Python repr: {leaf!r}"
            assert not LONG_NUMBER.search(text), f"{case.name}: {path} spells out a number of 20+ digits: {leaf!r}"
            continue
        values = np.asarray(leaf, dtype=float)
        nan, inf = np.isnan(values), np.isinf(values)
        assert not nan.any() or re.search(case.nan, path), f"{case.name}: {path} holds NaN: {leaf}"
        assert not inf.any() or re.search(case.inf, path), f"{case.name}: {path} holds ±inf: {leaf}"
        finite = values[np.isfinite(values)]
        if re.search(case.unit, path):
            assert np.all((finite >= 0) & (finite <= 1 + 1e-12)), f"{case.name}: {path} is not in [0, 1]: {leaf}"
        if re.search(case.positive, path):
            assert np.all(finite > 0), f"{case.name}: {path} is not positive: {leaf}"
        if re.search(case.nonnegative, path):
            assert np.all(finite >= 0), f"{case.name}: {path} is negative: {leaf}"
    if case.check is not None:
        case.check(output)


def check_case(case: Case, data) -> None:
    """Draw ε (and δ), call the function with RuntimeWarnings as errors, and apply the rule to what comes back."""
    epsilon = data.draw(case.epsilons, label="epsilon") if case.epsilons is not None else None
    delta = data.draw(case.deltas, label="delta") if case.deltas is not None else None
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            output = case.call(epsilon, delta, data.draw)
        except ValueError as refused:
            named = [name for name in case.names if re.search(rf"(?<!\w){name}(?!\w)", str(refused))]
            assert named, f"{case.name} refused without naming {' or '.join(case.names)}: {refused}"
            return
    assert_valid(case, output)


def cases(*group: Case):
    """A parametrisation over ``group``, one test id per function."""
    return pytest.mark.parametrize("case", [pytest.param(case, id=case.name) for case in group])


def sweep_result(result) -> None:
    """A sweep's summaries: errors and their summaries are distances or |errors| (finite, >= 0), trials >= 1."""
    for name in ("median", "lower", "upper", "mean", "rmse"):
        values = getattr(result, name)
        assert np.all(np.isfinite(values)) and np.all(values >= 0), f"{name}: {values}"
    assert np.all(result.trials >= 1)


SWEEP_RESULT = dict(nonnegative=r"\.(median|lower|upper|mean|rmse|errors)", positive=r"\.trials", check=sweep_result)


def one_of(frames) -> Callable:
    def check(output) -> None:
        assert output in frames, f"{output} is not one of the frames {frames}"
    return check


# ---------------------------------------------------------------------------------------------------- runners
_SHARED: dict = {}


def small_run(function, **params):
    """The lessons' ``run``, at the smallest sizes and shared: the page-fixed 40 trials of the tournament's user-level
    sweep become 1, the partition sweeps' TV uses 200 Monte Carlo points instead of 2,000 (2 would leave TV = 0, whose
    ratios mean nothing), and a sweep already computed for the same arguments is reused (the last 8)."""
    if function is tn.user_level_sweep:
        params["trials"] = 1
    if function is pr.error_sweep:
        params["mc_samples"] = 200
    key = (function.__module__, function.__qualname__, repr(sorted(params.items())))
    if key not in _SHARED:
        while len(_SHARED) >= 8:
            _SHARED.pop(next(iter(_SHARED)))
        _SHARED[key] = run_now(function, **params)
    return _SHARED[key]


@functools.cache
def partition_sweep():
    """A small partition sweep over every page ε (frames of rate_curves and sample_complexity): d = 16, 64."""
    return pr.error_sweep([1000, 100_000, 10_000_000], [16, 64], list(pr.EPSILONS), ["two-level"], trials=1, seed=0,
                          mc_samples=200)


@functools.cache
def item_sweep():
    return tn.item_sweep(1, 0)


@functools.cache
def user_sweep():
    return tn.user_sweep(0, run=small_run)


def sizes(*values):
    return st.sampled_from(values)


# ---------------------------------------------------------------------------------------------------- closed forms
def election_sums_to_one(output) -> None:
    for key in ("standard", "monotone"):
        assert output[key].sum() == pytest.approx(1.0)


ANALYTIC_CASES = [
    # class poll: what ε means for one vote, and the expected error of a released count
    Case("class_poll.odds_sentence", lambda e, d, draw: cp.odds_sentence(e, draw(sizes("change", "add-remove")))),
    Case("class_poll.mean_error",
         lambda e, d, draw: cp.mean_error(e, draw(sizes("geometric", "laplace")), draw(sizes("change", "add-remove"))),
         nonnegative="."),
    # home: the Laplace densities divided by their peak, and the takeaways (e^ε, the attacker's certainty)
    Case("home.neighbouring_densities", lambda e, d, draw: home.neighbouring_densities(e),
         unit=r"\['(on_x|on_x_prime|floor)'\]"),
    Case("home.takeaways", lambda e, d, draw: home.takeaways(e)),
    # exponential mechanism: exact election probabilities, the selection and median theory curves
    Case("exponential_mechanism.election_probabilities", lambda e, d, draw: em.election_probabilities(e),
         unit=".", check=election_sums_to_one),
    Case("exponential_mechanism.loss_theory", lambda e, d, draw: em.loss_theory(e), positive="."),
    Case("exponential_mechanism.median_theory", lambda e, d, draw: em.median_theory(e), positive="."),
    # pure vs approximate DP: captions, compositions, crossover, tables, profiles, exact RMSE and sample sizes
    Case("noise_tradeoff.accuracy_caption",
         lambda e, d, draw: nt.accuracy_caption(e, d, draw(sizes(1, 1024)), draw(sizes(2, 10_000, 1_000_000))),
         names=("epsilon", "delta"), deltas=DELTAS),
    Case("noise_tradeoff.advanced_beats_basic_from", lambda e, d, draw: nt.advanced_beats_basic_from(e, d),
         names=("release_epsilon", "delta"), deltas=DELTAS, positive="."),
    Case("noise_tradeoff.composition_curves", lambda e, d, draw: nt.composition_curves(e, d),
         names=("release_epsilon", "delta"), deltas=DELTAS, nonnegative=".", positive=r"'(basic|advanced)'"),
    Case("noise_tradeoff.composition_epsilons",
         lambda e, d, draw: nt.composition_epsilons(np.array([1.0, draw(sizes(2.0, 10_000.0))]), e, d),
         names=("release_epsilon", "delta"), deltas=DELTAS, nonnegative=".", positive=r"'(basic|advanced)'"),
    Case("noise_tradeoff.crossover_dimension",
         lambda e, d, draw: nt.crossover_dimension(e, d, draw(sizes("analytic", "classical"))),
         names=("epsilon", "delta"), deltas=DELTAS, positive="."),
    Case("noise_tradeoff.delta_table",
         lambda e, d, draw: nt.delta_table(e, draw(sizes(1, 1024)), draw(sizes(2, 1_000_000))), nonnegative="."),
    Case("noise_tradeoff.nearest_frame", lambda e, d, draw: nt.nearest_frame(e), check=one_of(nt.EPSILON_FRAMES)),
    Case("noise_tradeoff.privacy_profiles", lambda e, d, draw: nt.privacy_profiles(nt.PROFILE_EPSILONS, e),
         names=("noise_epsilon",), unit="."),
    # documented: NaN where δ(ε) < PROFILE_FLOOR (off the log axis)
    Case("noise_tradeoff.profile_curves", lambda e, d, draw: nt.profile_curves(e), names=("noise_epsilon",),
         unit=r"'(laplace|gaussian_analytic)'", nan=r"'(laplace|gaussian_analytic)'"),
    Case("noise_tradeoff.samples_needed",
         lambda e, d, draw: nt.samples_needed(draw(sizes(*nt.MECHANISMS, "non_private")), draw(sizes(1, 100_000)),
                                              draw(sizes(0.1, 1e-3)), e, d),
         names=("epsilon", "delta"), deltas=DELTAS, positive="."),
    Case("noise_tradeoff.sample_complexity_table",
         lambda e, d, draw: nt.sample_complexity_table(draw(sizes(1, 1024)), 0.1, e, d),
         names=("epsilon", "delta"), deltas=DELTAS, positive=r"\.samples"),
    Case("noise_tradeoff.theory_vs_n",
         lambda e, d, draw: nt.theory_vs_n(draw(sizes(*nt.MECHANISMS, "non_private")), draw(sizes(1, 1024)), e, d),
         names=("epsilon", "delta"), deltas=DELTAS, positive="."),
    Case("noise_tradeoff.theory_vs_dimension",
         lambda e, d, draw: nt.theory_vs_dimension(draw(sizes(*nt.MECHANISMS, "non_private")),
                                                   draw(sizes(2, 1_000_000)), e, d),
         names=("epsilon", "delta"), deltas=DELTAS, positive="."),
    # partitioning rounds: the rate shapes and the fitted constant (documented: NaN when every point is saturated)
    Case("partition_rounds.rate_curve",
         lambda e, d, draw: pr.rate_curve(draw(sizes(1, 4096)), [3.0, 1e7], e, draw(sizes(1.0, 1.5, 2.0))),
         unit=".", positive="."),
    Case("partition_rounds.fit_rate_constant",
         lambda e, d, draw: pr.fit_rate_constant(64, np.array([1e3, 1e5, 1e7]), e, np.array([0.9, 0.2, 0.01]), 1.5),
         nonnegative="."),
    Case("partition_rounds.fit_rate_constant(saturated)",  # documented: NaN when no point is below 0.8
         lambda e, d, draw: pr.fit_rate_constant(64, np.array([1e3, 1e5, 1e7]), e, np.array([1.0, 0.9, 0.85]), 1.5),
         nan="^out$", check=lambda output: math.isnan(output)),
    # tournament: frames, our guarantee (a TV bound, capped at 1) and the privacy term
    Case("tournament.frame_epsilon", lambda e, d, draw: tn.frame_epsilon(e, user_level=False),
         check=one_of(tn.EPSILON_FRAMES)),
    Case("tournament.frame_epsilon(user_level)", lambda e, d, draw: tn.frame_epsilon(e, user_level=True),
         check=one_of(tn.USER_EPSILONS)),
    Case("tournament.guarantee", lambda e, d, draw: tn.guarantee([1, 30, 10_000, 1e9], draw(sizes(2, 2001)), e),
         unit="."),
    Case("tournament.privacy_term", lambda e, d, draw: tn.privacy_term([2, 21, 2001], e), positive="."),
    # truncation: the frame, the theory companions and the exact bias-noise tradeoff
    Case("truncation.bias_frame", lambda e, d, draw: tr.bias_frame(e), check=one_of(tr.BIAS_EPSILONS)),
    Case("truncation.bias_companions", lambda e, d, draw: tr.bias_companions(e), positive="."),
    Case("truncation.rate_companions", lambda e, d, draw: tr.rate_companions(e, draw(sizes(*tr.MOMENT_ORDERS))),
         positive="."),
    Case("truncation.bias_noise_tradeoff",
         lambda e, d, draw: tr.bias_noise_tradeoff(draw(sizes(*tr.FAMILIES)), draw(sizes(*tr.MOMENT_ORDERS[:-1])),
                                                   draw(sizes(10, 1_000_000)), e),
         nonnegative=".", positive=r"'(radii|best|best_rmse)'"),
    Case("truncation.bias_noise_tradeoff(k=inf)",  # documented: the tight Lemma 3.1 bound is NaN for k = inf
         lambda e, d, draw: tr.bias_noise_tradeoff(draw(sizes(*tr.FAMILIES)), math.inf, draw(sizes(10, 1_000_000)), e),
         nonnegative=".", positive=r"'(radii|best|best_rmse)'", nan=r"'bound'"),
]


@cases(*ANALYTIC_CASES)
@ANALYTIC
@given(data=st.data())
def test_closed_forms_and_tables(case, data):
    """Closed forms, tables and captions (the function in the test id): ε in [1e-9, 1e6], δ in [1e-300, 0.5]."""
    check_case(case, data)


# ---------------------------------------------------------------------------------------------------- one run
SEEDS = st.integers(0, 2**32 - 1)


def partition_run_is_valid(output) -> None:
    """The estimate lies in [0, 1/2]^d; the trace is NaN exactly outside the coordinates each block releases."""
    trace = output.trace
    assert np.all((trace.estimate >= 0) & (trace.estimate <= 0.5))
    for step in trace.rounds:
        assert np.array_equal(np.isnan(step.noisy_means), ~step.candidates)
    for block in (trace.heavy, trace.final):
        assert np.array_equal(np.isnan(block.estimates), ~block.coordinates)


def poll_result(epsilon, draw):
    """The class poll at one, three and four choices (none, some and many votes), either noise and relation."""
    counts = draw(sizes((0,), (12, 7, 0), (500, 0, 3, 1)))
    return cp.poll_result(list(counts), [f"answer {i}" for i in range(len(counts))], epsilon,
                          draw(sizes("geometric", "laplace")), draw(sizes("change", "add-remove")), draw(SEEDS))


ONE_RUN_CASES = [
    Case("class_poll.poll_result", lambda e, d, draw: poll_result(e, draw),
         nonnegative=r"\.(true_counts|released_counts|answered|mean_error)$|'(true|released) count'"),
    Case("exponential_mechanism.election", lambda e, d, draw: em.election(e, draw(SEEDS)), unit=".",
         check=election_sums_to_one),
    Case("exponential_mechanism.median_run", lambda e, d, draw: em.median_run(draw(sizes(1, 10, 3000)), e,
                                                                              draw(SEEDS)),
         unit=r"'(edges|draws|sample_median)'", nonnegative=r"'(density|histogram)'"),
    Case("exponential_mechanism.median_note", lambda e, d, draw: em.median_note(draw(sizes(1, 10, 3000)), e,
                                                                                draw(SEEDS))),
    Case("noise_tradeoff.release_cloud",
         lambda e, d, draw: nt.release_cloud(draw(sizes(2, 100, 1_000_000)), e, d, draw(SEEDS)),
         names=("epsilon", "delta"), deltas=DELTAS, positive=r"'(n|radius)'"),
    # documented: the trace's noisy means and block estimates are NaN outside the coordinates each block releases
    Case("partition_rounds.one_run",
         lambda e, d, draw: pr.one_run(draw(sizes(*pr.PROFILES)), *draw(sizes((2, 4), (16, 1000), (64, 10_000_000))),
                                       e, d, draw(sizes(0, 1, 2))),
         names=("epsilon", "delta"), deltas=DELTAS,
         unit=r"\.distances\[\d+\]\.(value|standard_error|lower|upper)|\.trace\.estimate$",
         nan=r"\.noisy_means$|\.(heavy|final)\.estimates$", check=partition_run_is_valid),
    Case("tournament.one_run",
         lambda e, d, draw: tn.one_run(draw(sizes(2, *tn.K_GRID)), draw(sizes(2, 300, 10_000)), e,
                                       draw(sizes(0, 1, 2))),
         unit=r"\.(probabilities|distances)$"),
    # documented: the Scheffé set's intervals may have infinite ends
    Case("tournament.contest",
         lambda e, d, draw: tn.contest(0.3, 0.8, draw(sizes(2, 41)), draw(sizes(2, 300)), e, draw(sizes(0, 1))),
         unit=r"\.(p1|p2|tau)$", inf=r"\.shaded\["),
    Case("tournament.run_caption",
         lambda e, d, draw: tn.run_caption(draw(sizes(2, 41, 321)), draw(sizes(2, 300, 10_000)), e,
                                           draw(sizes(0, 1)))),
    Case("tournament.plane_run", lambda e, d, draw: tn.plane_run(e, draw(sizes(0, 1, 2))),
         unit=r"\.probabilities$"),
    Case("truncation.one_run",
         lambda e, d, draw: tr.one_run(draw(sizes(*tr.FAMILIES)), draw(sizes(*tr.MOMENT_ORDERS)),
                                       draw(sizes(10, 100_000)), draw(sizes(0.1, 2.0, 100.0)), e, draw(SEEDS)),
         unit=r"\.clipped_fraction$", positive=r"\.noise_sd$", text_ok=r"k = inf\b"),
    Case("truncation.window_caption",
         lambda e, d, draw: tr.window_caption(draw(sizes(*tr.FAMILIES)), draw(sizes(*tr.MOMENT_ORDERS)),
                                              draw(sizes(10, 100_000)), draw(sizes(0.1, 2.0, 100.0)), e,
                                              draw(SEEDS))),
]


@cases(*ONE_RUN_CASES)
@ONE_RUN
@given(data=st.data())
def test_one_seeded_run(case, data):
    """One seeded dataset and its private releases (the function in the test id): ε in [1e-9, 1e6], δ in
    [1e-300, 0.5], the page's smallest and largest n, d and k."""
    check_case(case, data)


# ---------------------------------------------------------------------------------------------------- frames only
FRAME_CASES = [
    Case("noise_tradeoff.error_ratio_exponent", lambda e, d, draw: nt.error_ratio_exponent(2, d, 1, 0, e),
         names=("epsilon", "delta"), epsilons=on_frames(nt.EPSILON_FRAMES), deltas=DELTAS),
    # documented: a fitted law is all NaN when every median is saturated
    Case("partition_rounds.rate_curves",
         lambda e, d, draw: pr.rate_curves(partition_sweep(), "two-level", draw(sizes(16, 64)), e),
         epsilons=on_frames(pr.EPSILONS), positive=r"\.n$", unit=r"\.(non_private|singhal_rate)$|\.fitted\[.*\]\[1\]",
         nan=r"\.fitted\[.*\]\[1\]"),
    # documented: needed is NaN beyond the n grid, an exponent NaN when fewer than two dimensions are measured
    Case("partition_rounds.sample_complexity", lambda e, d, draw: pr.sample_complexity(partition_sweep(), e),
         epsilons=on_frames(pr.EPSILONS), positive=r"\.(needed|dimensions)", nan=r"\.(needed|exponents)\["),
    # documented: NaN where the method never reaches the target TV
    Case("tournament.needed_by_k", lambda e, d, draw: tn.needed_by_k(item_sweep(), e, draw(sizes(*tn.METHODS))),
         epsilons=on_frames(tn.EPSILON_FRAMES), positive=".", nan="^out$"),
    Case("tournament.users_needed",
         lambda e, d, draw: tn.users_needed(user_sweep(), draw(sizes(*tn.USER_METHODS)), e),
         epsilons=on_frames(tn.USER_EPSILONS), positive=".", nan="^out$"),
    Case("tournament.price_of_k", lambda e, d, draw: tn.price_of_k(1, 0, e, run=small_run),
         epsilons=on_frames(tn.EPSILON_FRAMES), positive=".", nan=r"'needed'"),
    # documented: (NaN, NaN) when fewer than two k reach the target
    Case("tournament.k_growth", lambda e, d, draw: tn.k_growth(1, 0, e, run=small_run),
         epsilons=on_frames(tn.EPSILON_FRAMES), nan=r"^out\[[01]\]$"),
    Case("tournament.users_needed_curves", lambda e, d, draw: tn.users_needed_curves(0, e, run=small_run),
         epsilons=on_frames(tn.USER_EPSILONS), positive=".", nan=r"'needed'"),
]


@cases(*FRAME_CASES)
@ANALYTIC
@given(data=st.data())
def test_functions_of_a_frame(case, data):
    """Functions that read one ε frame of a sweep (the function in the test id): a frame gives a valid output, any
    other ε in [1e-9, 1e6] a ValueError naming epsilon; δ in [1e-300, 0.5]."""
    check_case(case, data)


# ---------------------------------------------------------------------------------------------------- sweeps
SWEEP_CASES = [
    Case("exponential_mechanism.user_level_sweep", lambda e, d, draw: em.user_level_sweep([1, 2], 2, e, 1, 0),
         **SWEEP_RESULT),
    Case("exponential_mechanism.user_level_vs_m", lambda e, d, draw: em.user_level_vs_m(e, 1, 0), **SWEEP_RESULT),
    Case("exponential_mechanism.takeaways", lambda e, d, draw: em.takeaways(e, draw(sizes(1, 3000)), 1, 0)),
    Case("noise_tradeoff.error_sweep",
         lambda e, d, draw: nt.error_sweep([2, 1_000_000], [1, 1024], [e], d, 1, 0, nt.mechanisms_for([e])),
         names=("epsilons", "delta"), deltas=DELTAS, **SWEEP_RESULT),
    Case("noise_tradeoff.error_vs_n", lambda e, d, draw: nt.error_vs_n(e, d, 1, 0),
         names=("epsilon", "delta"), deltas=DELTAS, **SWEEP_RESULT),
    Case("noise_tradeoff.error_vs_dimension", lambda e, d, draw: nt.error_vs_dimension(2, d, 1, 0),
         names=("delta",), epsilons=None, deltas=DELTAS, **SWEEP_RESULT),
    Case("noise_tradeoff.takeaways",
         lambda e, d, draw: nt.takeaways(e, d, draw(sizes(1, 1024)), draw(sizes(2, 1_000_000)), 1, 1, 0),
         names=("epsilon", "delta"), deltas=DELTAS),
    Case("noise_tradeoff.cover_samples_needed", lambda e, d, draw: nt.cover_samples_needed(1, 0.1, e, trials=2),
         positive="."),
    Case("noise_tradeoff.complexity_rows", lambda e, d, draw: nt.complexity_rows(1, e, d, 0),
         names=("epsilon", "delta"), deltas=DELTAS),
    Case("partition_rounds.error_sweep",
         lambda e, d, draw: pr.error_sweep([14, 10_000_000], [2, 64], [e], ["two-level"], 1, 0,
                                           draw(sizes("tv", "kl")), d, mc_samples=2),
         names=("epsilons", "delta"), deltas=DELTAS, **SWEEP_RESULT),
    Case("partition_rounds.sweep_vs_n",
         lambda e, d, draw: pr.sweep_vs_n("two-level", 2, d, 1, 0, draw(sizes("tv", "kl")), run=small_run),
         names=("delta",), epsilons=None, deltas=DELTAS, **SWEEP_RESULT),
    Case("partition_rounds.sweep_by_profile", lambda e, d, draw: pr.sweep_by_profile(2, e, d, 1, 0, run=small_run),
         names=("epsilon", "delta"), deltas=DELTAS, **SWEEP_RESULT),
    Case("tournament.takeaways",
         lambda e, d, draw: tn.takeaways(draw(sizes(2, 41, 321)), draw(sizes(2, 300, 10_000)), e,
                                         draw(sizes(*tn.PER_USER)), 1, 0, run=small_run)),
    Case("truncation.error_sweep",
         lambda e, d, draw: tr.error_sweep(draw(sizes(*tr.FAMILIES)), [2.0, math.inf], [10, 1000], e, 1000, 0),
         inf=r"\.grid\['moment_k'\]", **SWEEP_RESULT),
    Case("truncation.bias_correction_sweep",
         lambda e, d, draw: tr.bias_correction_sweep([10, 1000], [e], d, 0.8, 0.0, 1.5, 2, 0),
         names=("epsilons", "delta"), deltas=DELTAS, **SWEEP_RESULT),
]


@cases(*SWEEP_CASES)
@SWEEP
@given(data=st.data())
def test_monte_carlo_sweeps(case, data):
    """Monte Carlo sweeps and what reads them (the function in the test id), at one trial and the smallest sizes:
    ε in [1e-9, 1e6], δ in [1e-300, 0.5]."""
    check_case(case, data)


# The page-sized sweeps that several functions read: one draw of ε (and δ) per example, one sweep shared through
# small_run, each function checked on its own.
PARTITION_PROFILE = "log-uniform"
SHARED_SWEEP_GROUPS = {
    "partition_rounds: sweep_vs_dimension, complexity_table, takeaways": [
        Case("partition_rounds.sweep_vs_dimension",
             lambda e, d, draw: pr.sweep_vs_dimension(PARTITION_PROFILE, e, d, 1, 0, run=small_run),
             names=("epsilon", "delta"), deltas=DELTAS, **SWEEP_RESULT),
        Case("partition_rounds.complexity_table",
             lambda e, d, draw: pr.complexity_table(PARTITION_PROFILE, e, d, 1, 0, run=small_run),
             names=("epsilon", "delta"), deltas=DELTAS),
        Case("partition_rounds.takeaways",
             lambda e, d, draw: pr.takeaways(PARTITION_PROFILE, draw(sizes(1000, 10_000_000)), e, d, 1, 0,
                                             run=small_run),
             names=("epsilon", "delta"), deltas=DELTAS),
    ],
    "truncation: error_vs_n, slope_note, takeaways": [
        Case("truncation.error_vs_n", lambda e, d, draw: tr.error_vs_n("lomax", e, 2, 0, run=small_run),
             inf=r"\.grid\['moment_k'\]", **SWEEP_RESULT),
        Case("truncation.slope_note",
             lambda e, d, draw: tr.slope_note("lomax", e, 2, 0, draw(sizes(*tr.MOMENT_ORDERS)), run=small_run),
             text_ok=r"k = inf\b"),
        Case("truncation.takeaways",
             lambda e, d, draw: tr.takeaways("lomax", draw(sizes(*tr.MOMENT_ORDERS)), draw(sizes(10, 100_000)),
                                             draw(sizes(0.1, 100.0)), e, 0, 2, run=small_run),
             text_ok=r"k = inf\b"),
    ],
}


@pytest.mark.parametrize("group", list(SHARED_SWEEP_GROUPS.values()), ids=list(SHARED_SWEEP_GROUPS))
@SWEEP
@given(data=st.data())
def test_page_sweeps_and_their_readers(group, data):
    """The functions in the test id, on one sweep per example (trials at their minimum): ε in [1e-9, 1e6], δ in
    [1e-300, 0.5]; the partition sweep of the "log-uniform" profile, the truncation sweep of Lomax."""
    epsilon, delta = data.draw(EPSILONS, label="epsilon"), data.draw(DELTAS, label="delta")
    for case in group:
        check_case(Case(**{**case.__dict__, "epsilons": st.just(epsilon), "deltas": st.just(delta)}), data)


# ---------------------------------------------------------------------------------------------------- the corners
def corner_cases():
    """Every case above at the corners of the range, which random draws may miss: ε = 1e-9 and 1e6 with δ = 1e-300
    and 0.5 (the sweeps only at (1e-9, 1e-300) and (1e6, 0.5), to stay fast)."""
    slow = {case.name for case in SWEEP_CASES} | {case.name for group in SHARED_SWEEP_GROUPS.values() for case in group}
    every = [*ANALYTIC_CASES, *ONE_RUN_CASES, *FRAME_CASES, *SWEEP_CASES,
             *(case for group in SHARED_SWEEP_GROUPS.values() for case in group)]
    for case in every:
        corners = list(itertools.product((1e-9, 1e6) if case.epsilons is not None else (None,),
                                         (1e-300, 0.5) if case.deltas is not None else (None,)))
        if case.name in slow and len(corners) == 4:
            corners = [corners[0], corners[-1]]
        for epsilon, delta in corners:
            shown = "-".join(f"{name}={value:g}" for name, value in (("eps", epsilon), ("delta", delta))
                             if value is not None)
            yield pytest.param(case, epsilon, delta, id=f"{case.name}-{shown}")


@pytest.mark.parametrize("case, epsilon, delta", list(corner_cases()))
@settings(max_examples=1, deadline=None)
@given(data=st.data())
def test_at_the_corners(case, epsilon, delta, data):
    """The function in the test id at the ε and δ of the id (its other arguments at their first listed value)."""
    fixed = {"epsilons": None if epsilon is None else st.just(epsilon),
             "deltas": None if delta is None else st.just(delta)}
    check_case(Case(**{**case.__dict__, **fixed}), data)


# ---------------------------------------------------------------------------------------------------- regressions
# Concrete values that failed before their fix in dpcore/lessons.
def test_noise_tradeoff_takeaways_write_a_tiny_delta_times_n_in_scientific_notation():
    """δ = 1e-300, n = 2 wrote 1/(δn) out in full: a 399-character number in the last takeaway."""
    assert nt.takeaways(1.0, 1e-300, 1, 2, 1, 1, 0)[3] == ("δ × n = 2e-300: δ is 5.0e+299× below 1/n — comfortably "
                                                           "small.")
    assert nt.takeaways(1.0, 1e-12, 1, 100, 1, 1, 0)[3].startswith("δ × n = 1e-10: δ is 10,000,000,000× below")


def test_home_takeaways_quote_e_to_the_epsilon_without_overflow():
    """ε = 100 showed "is nan = e^100" (both densities underflow to 0 far from the count: 0/0) and ε = 1000 raised
    OverflowError (math.exp): the ratio is now taken in log space and e^ε written as a power of ten."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert "on screen is 2.69e+43 = $e^{100}$" in home.takeaways(100.0)[0]
        notes = home.takeaways(1000.0)
    assert "on screen is 1.97e+434 = $e^{1000}$" in notes[0] and "1.97e+434 times likelier" in notes[0]
    assert "at most 100% sure" in notes[1]
    page = home.takeaways(1.0)  # the page's range is unchanged
    assert "on screen is 2.718 = $e^{1}$" in page[0] and "2.72 times likelier" in page[0] and "73% sure" in page[1]


@pytest.mark.parametrize("release_epsilon", [710.0, 1000.0, 1e6])
def test_advanced_composition_never_beats_basic_above_ln2_even_where_e_to_epsilon_overflows(release_epsilon):
    """These raised OverflowError (math.exp(release_epsilon)); e^ε0 >= 2 means never, whatever its size."""
    assert nt.advanced_beats_basic_from(release_epsilon, 1e-6) is None


def test_composition_refusal_names_release_epsilon():
    """composition_curves(1000, 1e-6) refused with "epsilon=1000.0 per release": not the parameter's name."""
    with pytest.raises(ValueError, match=r"release_epsilon=1000\.0 is too large for advanced composition"):
        nt.composition_curves(1000.0, 1e-6)


def test_sample_size_refusals_name_the_privacy_parameters():
    """Both named only target_error (which complexity_rows does not even take), and the cover's "2^16" was wrong:
    its last n is 25 · 2^12 = 102,400."""
    with pytest.raises(ValueError, match=r"at epsilon=1e-09, delta=1e-06, dimension=100000"):
        nt.samples_needed("laplace", 100_000, 0.1, 1e-9, 1e-6)
    with pytest.raises(ValueError, match=r"more than 102,400 samples for the cover mechanism at epsilon=1e-09"):
        nt.cover_samples_needed(1, 0.1, 1e-9)


def test_partition_takeaways_never_print_an_unmeasured_exponent_as_nan():
    """With 2 Monte Carlo TV points the "few heavy" sweep at ε = 1, δ = 1e-300 measures the non-private sample size at
    fewer than two dimensions: its exponent is NaN (documented) and the takeaway read "non-private nan."."""
    def two_points(function, **params):
        return run_now(function, **{**params, "mc_samples": 2})

    notes = pr.takeaways("few heavy", 1000, 1.0, 1e-300, 1, 0, run=two_points)
    exponents = pr.sample_complexity(pr.sweep_vs_dimension("few heavy", 1.0, 1e-300, 1, 0, run=two_points),
                                     1.0).exponents
    assert not NAN_OR_INF.search(notes[2])
    for method, shown in ((pr.rounds.NAIVE, "naive"), (pr.rounds.NON_PRIVATE, "non-private")):
        value = exponents[method]
        assert f"{shown} {'**' if method == pr.rounds.NAIVE else ''}" + (
            f"{value:.2f}" if math.isfinite(value) else "not measured") in notes[2]
