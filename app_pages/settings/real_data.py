"""Real data: the controls, and the public defaults of each column.

The sidebar holds what every section uses (the data, ε, δ, the Monte Carlo); the public range, the clipping bounds
and the scale are typed in the page, beside what they change, with defaults per data set: what such a column can be,
known without looking at it (ages lie in [0, 120]). A student's own column has no such default: its boxes start empty,
the public range is the student's to type (:data:`TYPE_RANGE` says why) and nothing private is released until it is
(:func:`filled`). An uploaded file is never in the URL; the choice "your own CSV" is, and so is what was typed.
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
    private range's moment assumption), its unit (short, for the charts' axes). None: nothing is known (a student's
    own column), the box starts empty."""

    low: float | None
    high: float | None
    scale: float | None
    unit: str


PUBLIC = {
    "engel": PublicFacts(0.0, 10_000.0, 500.0, "francs a year"),
    "anes96": PublicFacts(0.0, 120.0, 20.0, "years"),
    "randhie": PublicFacts(0.0, 100.0, 5.0, "visits a year"),
    UPLOAD: PublicFacts(None, None, None, ""),  # the student's to type: no range fits every file
}
MOMENT_K = 2.0  #: the private range's moment assumption: a finite variance, E|X − μ|² ≤ s²
BOUND = 1e12  #: the largest public bound the page accepts (any real column's unit fits)


def public_specs(data: str) -> list[ui.ParamSpec]:
    """The public range, the clipping bounds and the scale, typed in the page, with the defaults of ``data``."""
    facts = PUBLIC[data]
    unit = f" ({facts.unit})" if facts.unit else ""
    typed = facts.low is None  # a student's column: every box starts empty

    def bound(key: str, label: str, default: float | None, help: str, empty: str) -> ui.ParamSpec:
        return ui.ParamSpec(key=key, label=f"{label}{unit}", kind="number", default=default, low=-BOUND, high=BOUND,
                            help=help, placeholder=empty if typed else "")
    return [
        bound("low", "Public range: lowest value a", facts.low,
              "The smallest value such a column can hold, known without looking at the data.", "type it"),
        bound("high", "Public range: highest value b", facts.high,
              "The largest value such a column can hold, known without looking at the data.", "type it"),
        bound("lower", "Clipping bound L", facts.low, "Values below L are moved up to L before averaging.",
              "empty: a"),
        bound("upper", "Clipping bound U", facts.high, "Values above U are moved down to U before averaging.",
              "empty: b"),
        ui.ParamSpec(key="scale", label=f"Scale s{unit}", kind="number", default=facts.scale, low=1e-9,
                     high=BOUND, help="A guess of how far values typically lie from the mean, made without the "
                                      "data: the private range assumes E|X − μ|² ≤ s².",
                     placeholder="empty: (b − a)/2" if typed else ""),
    ]


#: What the page says while an upload's public range is empty (in a student's words; no number of the file)
TYPE_RANGE = ("**Type the public range [a, b] of this column**: the lowest and the highest value such a column can "
              "hold, from what you know before looking at it (an age lies between 0 and 120; an income is at least 0, "
              "and a generous upper end is fine). The lab cannot read it off your file: the file's smallest and "
              "largest values are two people's own values, and taking the range from them would publish them with "
              "no noise, or spend part of the privacy budget ε to find them privately. Nothing private is released "
              "until the range is typed. Left empty, the clipping bounds L and U are the range itself, and the "
              "scale s is (b − a)/2, the largest spread a column inside the range can have.")


def filled(values: dict) -> dict | None:
    """The public values typed in the page (``low``, ``high``, ``lower``, ``upper``, ``scale``), the empty boxes of a
    student's column filled: None while the public range is not typed; L and U, left empty, the public range; s, left
    empty, (b − a)/2 (no column inside [a, b] spreads more: its variance is at most (b − a)²/4).

    >>> filled(dict(low=0.0, high=120.0, lower=None, upper=95.0, scale=None))
    {'low': 0.0, 'high': 120.0, 'lower': 0.0, 'upper': 95.0, 'scale': 60.0}
    >>> filled(dict(low=0.0, high=None, lower=None, upper=None, scale=None)) is None
    True
    """
    low, high = values["low"], values["high"]
    if low is None or high is None:
        return None
    return dict(low=low, high=high, lower=low if values["lower"] is None else values["lower"],
                upper=high if values["upper"] is None else values["upper"],
                scale=(abs(high - low) / 2 or 1.0) if values["scale"] is None else values["scale"])  # crossed a, b:
    # still a valid scale, so that the page's message is the range's own


IN_PAGE = tuple(public_specs(DATA.default))  #: the controls typed in the page (their keys are the same for every data)
