"""./lab.sh sweep (ui.reproduce): a reproduction beyond the slider is stored, recomputes to the same numbers, and is
then offered and served by its page; bad command lines get a clear message."""

import shutil

import pytest
from helpers import page_path, run

from dpcore.experiments import rerun_stored, stored_calls
from registry import by_url_path
from ui import compute, reproduce

PAGE = by_url_path("pure-vs-approximate")
TRIALS = 2500  # beyond the page's slider (20 … 2,000); its two error-vs-n sweeps take a few seconds


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A copy of the stored sweeps, which the app reads and a reproduction writes into."""
    copy = tmp_path / "precomputed"
    shutil.copytree(compute.PRECOMPUTED, copy)
    monkeypatch.setattr(compute, "PRECOMPUTED", copy)
    compute._read_index.cache_clear()
    yield copy
    compute._read_index.cache_clear()


def test_beyond_the_slider_a_link_is_clamped_until_a_reproduction_is_stored(store, computed_sweeps):
    before = run(page_path("noise_tradeoff.py"), trials=str(TRIALS))
    assert before.session_state["w_trials"] == 2000
    assert [w.value for w in before.warning] == [f"trials = `{TRIALS}` in the link is outside [20, 2,000]; "
                                                 "clamped to 2,000."]
    written = reproduce.reproduce(PAGE, TRIALS)
    assert len(written) == 2
    calls = stored_calls(store, compute.reproduction_mark(PAGE.url_path))
    assert sorted(path for _, _, path in calls) == written
    assert {params["trials"] for _, params, _ in calls} == {TRIALS}
    compute._read_index.cache_clear()  # a server reads the index once; this one restarts
    assert compute.reproduced_trials(PAGE.url_path) == (TRIALS,)
    computed_sweeps.clear()
    after = run(page_path("noise_tradeoff.py"), trials=str(TRIALS))
    assert not after.warning and not after.exception
    assert after.session_state["w_trials"] == TRIALS
    assert computed_sweeps == []  # both error-vs-n figures are served from the reproduction


def test_a_stored_reproduction_recomputes_to_the_same_numbers(store):
    trials = TRIALS + 100  # not computed by the other test (this process keeps what it computed)
    path = next(p for p in reproduce.reproduce(PAGE, trials, {"k": "10"}) if "error_sweep" in p.name)
    stored, fresh = rerun_stored(path)
    assert stored.records() == fresh.records()  # same seed, same streams: every summary, bit for bit
    assert set(stored.trials.ravel()) == {trials}


@pytest.mark.parametrize("argv, message", [
    (["nowhere", "--trials", "10"], "no page with Monte Carlo sweeps named 'nowhere'"),
    (["privacy-audit-lab", "--trials", "10"], "no page with Monte Carlo sweeps named 'privacy-audit-lab'"),
    (["truncation-bias", "--trials", "10", "--set", "nope=1"], "--set: no control 'nope'"),
    (["truncation-bias", "--trials", "10", "--set", "eps=abc"], "`abc` is not a number"),
    (["truncation-bias", "--trials", "0"], "--trials must be >= 1"),
    (["truncation-bias", "--trials", "10", "--set", "eps"], "--set takes key=value"),
])
def test_bad_command_lines_are_refused_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        reproduce.main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
