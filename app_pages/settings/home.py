"""Home: the control of the page's ε (it draws no Monte Carlo sweep)."""

import ui

SPECS = [ui.epsilon_spec(default=1.0, low=0.1, high=5.0)]
