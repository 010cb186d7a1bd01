"""Tournament (Scheffé) hypothesis selection, item- and user-level."""

import streamlit as st

import ui
from app_pages.settings import tournament as settings
from dpcore.lessons import tournament as lesson
from dpcore.viz.figures import tournament as figures

page = ui.Page(__file__, settings.SPECS)
epsilon, n, k, per_user, trials, seed = (page[key] for key in ("eps", "n", "hypotheses", "m", "trials", "seed"))
one_run = dict(k=k, n=n, epsilon=epsilon, seed=seed)
item_epsilon, user_epsilon = lesson.frame_epsilon(epsilon), lesson.frame_epsilon(epsilon, user_level=True)
revealed = page.revealed("price")  # the growth with k, said after the guess

page.intro()
page.caption(lesson.run_caption, **one_run)
with page.section("contest"):
    if page["a"] == page["b"]:  # the library's ValueError names its parameters a and b; say it in the page's words
        st.warning(f"The contest needs two different hypotheses: H_i's mean and H_j's mean are both "
                   f"{page['a']:g}; pick another H_j's mean.")
    else:
        page.figure("contest", figures.one_contest, a=page["a"], b=page["b"], **one_run)
    page.draw_again()
with page.section("tournament", contests=f"{k * (k - 1) // 2:,}"):
    page.figure("win_matrix", figures.whole_tournament, **one_run)
with page.section("scores"):
    page.figure("scores", figures.selection_scores, **one_run)
with page.section("tv-vs-n", trials=trials, epsilon=f"{item_epsilon:g}"):
    page.figure("tv_vs_n", figures.tv_vs_n, animated=True, download=True, trials=trials, seed=page["mc"],
                epsilon=item_epsilon, start=str(k))
with page.section("price-of-k", target=f"{lesson.TARGET_TV:g}"):
    if page.predict(lesson.price_question, trials, page["mc"], item_epsilon, run=ui.sweep):
        page.figure("price_of_k", figures.price_of_k, animated=True, download=True, trials=trials, seed=page["mc"],
                    start=f"{item_epsilon:g}")
with page.section("user-level", epsilon=f"{user_epsilon:g}", trials=lesson.USER_TRIALS):
    page.figure("users_needed", figures.users_needed, animated=True, download=True, seed=page["mc"],
                start=f"{user_epsilon:g}")
    page.figure("user_tv", figures.user_tv, animated=True, download=True, seed=page["mc"], epsilon=user_epsilon,
                start=str(per_user))
with page.section("plane", n=lesson.PLANE_N, mean=lesson.PLANE_MEAN):
    for column, (key, shown) in zip(st.columns(2), (("plane_scores", "score"), ("plane_probabilities", "P(select)"))):
        with column:
            page.figure(key, figures.plane_map, shown=shown, epsilon=epsilon, seed=seed)
page.takeaways(lesson.takeaways, per_user=per_user, trials=trials, run=ui.sweep, monte_carlo_seed=page["mc"],
               revealed=revealed, **one_run)
page.go_deeper()
