"""Real data: the controls, and the public defaults of each column.

The sidebar holds what every section uses (the data, ε, δ, the Monte Carlo); the public range, the clipping bounds
and the scale are typed in the page, beside what they change, with defaults per data set: what such a column can be,
known without looking at it (ages lie in [0, 120]). An uploaded file is never in the URL; the choice "your own CSV"
is.
"""

from dataclasses import dataclass

import ui

UPLOAD = "upload"  #: the ``data`` option of a student's own CSV file
DATA_NAMES = {"engel": "Household incomes (Engel 1857)", "anes96": "Ages (American National Election Study 1996)",
              "randhie": "Doctor visits (RAND Health Insurance Experiment)", UPLOAD: "Your own CSV file"}

DATA = ui.ParamSpec(key="data", label="Data", kind="choice", default="engel", options=tuple(DATA_NAMES),
                    names=DATA_NAMES, help="A real column shipped with the lab (public domain), or a column of your "
                                           "own CSV file (it stays in this browser tab).")
SPECS = [
    DATA,
    ui.epsilon_spec(default=1.0, low=0.01, high=10.0),
    ui.delta_spec(),
    ui.trials_spec(default=200, low=20, high=1000),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]


@dataclass(frozen=True)
class PublicFacts:
    """What is known of a column without looking at it: the range it can take, a scale of its spread (for the
    private range's moment assumption), its unit (short, for the charts' axes)."""

    low: float
    high: float
    scale: float
    unit: str


PUBLIC = {
    "engel": PublicFacts(0.0, 10_000.0, 500.0, "francs a year"),
    "anes96": PublicFacts(0.0, 120.0, 20.0, "years"),
    "randhie": PublicFacts(0.0, 100.0, 5.0, "visits a year"),
    UPLOAD: PublicFacts(0.0, 100.0, 10.0, ""),
}
MOMENT_K = 2.0  #: the private range's moment assumption: a finite variance, E|X − μ|² ≤ s²
BOUND = 1e12  #: the largest public bound the page accepts (any real column's unit fits)


def public_specs(data: str) -> list[ui.ParamSpec]:
    """The public range, the clipping bounds and the scale, typed in the page, with the defaults of ``data``."""
    facts = PUBLIC[data]
    unit = f" ({facts.unit})" if facts.unit else ""

    def bound(key: str, label: str, default: float, help: str) -> ui.ParamSpec:
        return ui.ParamSpec(key=key, label=f"{label}{unit}", kind="number", default=default, low=-BOUND, high=BOUND,
                            help=help)
    return [
        bound("low", "Public range: lowest value a", facts.low,
              "The smallest value such a column can hold, known without looking at the data."),
        bound("high", "Public range: highest value b", facts.high,
              "The largest value such a column can hold, known without looking at the data."),
        bound("lower", "Clipping bound L", facts.low, "Values below L are moved up to L before averaging."),
        bound("upper", "Clipping bound U", facts.high, "Values above U are moved down to U before averaging."),
        ui.ParamSpec(key="scale", label=f"Scale s{unit}", kind="number", default=facts.scale, low=1e-9,
                     high=BOUND, help="A guess of how far values typically lie from the mean, made without the "
                                      "data: the private range assumes E|X − μ|² ≤ s²."),
    ]


IN_PAGE = tuple(public_specs(DATA.default))  #: the controls typed in the page (their keys are the same for every data)
