"""Audit studio: the controls (every audit runs at once for every setting: no stored sweep).

The one-run audit's controls are in the sidebar: the number of canaries m, the guesses k₊ and k₋ (scaled down with a
message when together they exceed m), the claimed ε and δ, the confidence, isolated or aggregate canaries, correct or
planted bug, the seed; the many-run audits' draws too. The mechanism of the trade-off picture is chosen beside it.
"""

from dataclasses import replace

import ui
from dpcore.lessons import audit_studio as lesson

SPECS = [
    ui.ParamSpec(key="m", label="Canaries m (log scale)", kind="log", default=1000, options=lesson.CANARIES,
                 format="{:,}", help="How many canaries go through the mechanism in its one run, each included with "
                 "probability ½."),
    ui.ParamSpec(key="k_in", label="Guesses “in” k₊", kind="choice", default=100, options=lesson.GUESS_OPTIONS,
                 format="{:,}", help="The auditor says “in” for the k₊ canaries with the highest scores."),
    ui.ParamSpec(key="k_out", label="Guesses “out” k₋", kind="choice", default=100, options=lesson.GUESS_OPTIONS,
                 format="{:,}", help="The auditor says “out” for the k₋ canaries with the lowest scores and abstains "
                 "on the rest."),
    replace(ui.epsilon_spec(default=1.0, low=0.2, high=5.0), label="Claimed ε (log scale)",
            help="The ε the mechanism claims, and spends when it is correct."),
    ui.ParamSpec(key="delta", label="Claimed δ of the one-run audit", kind="choice", default=0.0,
                 options=lesson.DELTAS, format="{:g}",
                 help="The δ of the claim the one-run audit tests (0: pure DP). The many-run bounds are stated at "
                 "δ = 10⁻⁵."),
    ui.ParamSpec(key="conf", label="Confidence", kind="choice", default=0.95, options=(0.9, 0.95, 0.99),
                 help="The probability that a lower bound on ε is below the mechanism's true ε."),
    ui.ParamSpec(key="mode", label="Canaries", kind="choice", default="randomized-response", options=lesson.MODES,
                 names=lesson.MODE_NAMES, help="Each canary released on its own, or all of them in one noisy sum."),
    ui.ParamSpec(key="bug", label="Mechanism", kind="choice", default="correct", options=lesson.BUGS,
                 names=lesson.BUG_NAMES, help="The correct mechanism, or one with a planted bug that spends more than "
                 "it claims."),
    ui.ParamSpec(key="draws", label="Draws per dataset, many-run audits", kind="choice", default=lesson.DRAWS,
                 options=lesson.DRAW_OPTIONS, format="{:,}",
                 help="How many times the many-run audits run the mechanism on X and on X′."),
    replace(ui.seed_spec(), help="Same seed, same canaries, noise and draws: share the link to show exactly this run. "
                                 "The band over repeated audits and the 200 audits of the "
                                 "thresholds keep their own seeds."),
]
CURVE = ui.ParamSpec(key="curve", label="Mechanism of the trade-off picture", kind="choice", default="laplace-count",
                     options=lesson.MANY, names={"laplace-count": "Laplace count", "gaussian-mean": "Gaussian mean"},
                     help="Whose trade-off points to draw: the audit lab's Laplace count or its Gaussian mean.")
IN_PAGE = (CURVE,)  #: drawn beside the trade-off picture
