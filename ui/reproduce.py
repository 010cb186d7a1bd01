"""A paper-size reproduction, stored for the app to serve: ``./lab.sh sweep PAGE --trials T [--scheduler ADDRESS]``.

The page's sliders stop at a few thousand Monte Carlo trials, what a shared server computes while a student waits.
A reproduction runs the sweeps of one page (:mod:`app_pages.settings`; at its defaults, or the settings given with
``--set key=value``) with ``T`` trials per grid point, beyond the slider if need be, and stores each in
``assets/precomputed``, marked ``stored_for="reproduction:<page's URL path>"``. From the next server
start on, that page's trial control offers ``T`` after its own values (:func:`ui.compute.reproduced_trials`), so
``/<page>?trials=T`` draws the reproduction at once; other settings at ``T`` trials are computed in the background,
as any request is.

With ``--scheduler ADDRESS`` every sweep's grid points run on that Dask cluster
(:func:`dpcore.experiments.parallel_over`; ``pip install .[dask]``): the random streams are keyed by the grid
values, so the stored numbers are the same whatever the cluster (``tests/experiments/test_engine.py`` checks it). The
app never needs Dask.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import time
from pathlib import Path

from dpcore.experiments import load_or_run, parallel_over
from registry import PAGES, PageInfo

from . import compute
from .compute import reproduction_mark
from .params import TRIALS_KEY
from .precompute import page_controls, page_settings, settings_values

__all__ = ["reproduce", "main"]


def reproduce(page: PageInfo, trials: int, settings: dict[str, str] | None = None,
              executor: object | None = None) -> list[Path]:
    """Run the sweeps ``page`` shows at ``settings`` (URL values; default: its defaults) with ``trials`` Monte Carlo
    trials, every sweep on ``executor`` if given, and store what it computes; returns the files written."""
    if not isinstance(trials, int) or trials < 1:
        raise ValueError(f"trials must be an integer >= 1; got {trials!r}")
    page_module = page_settings(page)
    values = {**settings_values(page_controls(page_module), settings), TRIALS_KEY: trials}
    before = set(compute.PRECOMPUTED.glob("*.npz"))
    with parallel_over(executor) if executor is not None else contextlib.nullcontext():
        page_module.sweeps(values, functools.partial(load_or_run, compute.PRECOMPUTED,
                                                     store_as=reproduction_mark(page.url_path)))
    return sorted(set(compute.PRECOMPUTED.glob("*.npz")) - before)


def _page(name: str) -> PageInfo:
    swept = [info for info in PAGES if hasattr(page_settings(info), "sweeps")]
    for info in swept:
        if name in (info.url_path, Path(info.script).stem):
            return info
    topics = ", ".join(info.url_path for info in swept)
    raise argparse.ArgumentTypeError(f"no page with Monte Carlo sweeps named {name!r}; one of {topics}")


def _setting(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"--set takes key=value, as in the page's URL; got {text!r}")
    return key, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./lab.sh sweep", description=__doc__.split("\n\n")[0])
    parser.add_argument("page", type=_page, help="the page's URL path, e.g. truncation-bias")
    parser.add_argument("--trials", type=int, required=True, help="Monte Carlo trials per grid point")
    parser.add_argument("--set", type=_setting, action="append", default=[], metavar="KEY=VALUE",
                        help="a control's value, as in the page's URL (repeatable; default: the page's defaults)")
    parser.add_argument("--scheduler", default="", help="a Dask scheduler's address, e.g. tcp://10.0.0.5:8786")
    args = parser.parse_args(argv)
    if args.trials < 1:
        parser.error(f"--trials must be >= 1; got {args.trials}")
    try:
        settings_values(page_controls(page_settings(args.page)), dict(args.set))
    except ValueError as error:
        parser.error(f"--set: {error}")
    with contextlib.ExitStack() as stack:
        executor = None
        if args.scheduler:
            from distributed import Client  # the optional extra: pip install .[dask]
            executor = stack.enter_context(Client(args.scheduler)).get_executor()
        began = time.monotonic()
        written = reproduce(args.page, args.trials, dict(args.set), executor)
    print(f"{args.page.title}: stored {len(written)} sweeps at {args.trials:,} trials in "
          f"{time.monotonic() - began:.0f} s; open /{args.page.url_path}?{TRIALS_KEY}={args.trials} after restarting "
          "the app.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
