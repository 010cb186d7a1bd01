"""Privacy audit lab: the controls (the audit runs at once for every setting: no stored sweep)."""

import ui
from dpcore.lessons import audit_lab as lesson

SPECS = [
    ui.ParamSpec(key="mechanism", label="Mechanism", kind="choice", default="laplace-count",
                 options=tuple(lesson.MECHANISMS),
                 names={key: mechanism.title for key, mechanism in lesson.MECHANISMS.items()},
                 help="The mechanism under audit; each has a correct and a broken "
                 "variant."),
    ui.ParamSpec(key="variant", label="Variant", kind="choice", default="A", options=("A", "B"),
                 help="One of A and B is correct, the other has a planted bug; which letter is broken is shuffled for "
                 "each mechanism and seed. Look at both, then guess in the page."),
    ui.epsilon_spec(default=1.0, low=0.1, high=5.0),
    ui.ParamSpec(key="draws", label="Draws per dataset (log scale)", kind="log", default=lesson.DRAWS,
                 options=tuple(ui.log_grid(1_000, 1_000_000, integer=True)), format="{:,}",
                 help="How many times the mechanism runs on X and on X′."),
    ui.ParamSpec(key="conf", label="Confidence", kind="choice", default=lesson.CONFIDENCE, options=(0.9, 0.95, 0.99),
                 help="The probability that the lower bound on ε is below the true ε, for every event at once."),
    ui.seed_spec(),
]
