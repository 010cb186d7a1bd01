"""The tournament page's figures (dpcore.viz.figures.tournament)."""


from tests.examples import stored

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "one_contest": dict(a=0.3, b=0.8, k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "whole_tournament": dict(k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "selection_scores": dict(k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "plane_map": dict(shown="score", epsilon=1.0, seed=0, presentation=False),
    "tv_vs_n": dict(
        trials=100, seed=0, epsilon=0.1, start="41", presentation=False, run=stored
    ),
    "price_of_k": dict(
        trials=100, seed=0, start="0.1", presentation=False, run=stored
    ),
    "users_needed": dict(seed=0, start="0.1", presentation=False, run=stored),
    "user_tv": dict(seed=0, epsilon=0.1, start="16", presentation=False, run=stored),
}
