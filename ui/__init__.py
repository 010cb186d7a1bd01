"""The app side of Private Estimation Lab: the skeleton the page scripts are written into, and the serving layer
(Streamlit; dpcore knows nothing of it).

The classroom's parts (the class poll, "Share with the class", the Embed code, the handout) are :mod:`classroom`'s,
below this package: ``ui`` draws them and imports them; ``classroom`` never imports ``ui``. The pages
(``app_pages/``, ``app.py``) sit above both. :func:`show_table` is :mod:`classroom.table`'s (the poll draws its counts
with it), re-exported here for the pages.

===================  ================================================================================================
``params``           :class:`ParamSpec` and ready-made specs (ε, δ, n, trials, seed); URL parsing, clamping,
                     the controls
``chrome``           stylesheet, presentation mode, title, footer (with "Share with the class" and the teacher's class
                     polls, from :mod:`classroom`), the guard that shows a dpcore error as a message
``text``             :class:`PageText`: a page's prose from the Markdown file beside its script
``compute``          the one cached-sweep layer (:func:`sweep`), figures and lesson texts built once for every session
                     (:func:`figure`, :func:`shared`), notebook snippets
``progressive``      sweeps that answer within a time budget: a quick pass now, the requested run in the shared
                     background worker
``page``             :class:`Page`, the skeleton every page is written into
``frames``           an animated chart's frame in the page's link: ``?frame_<chart key>=<frame>`` opens it there
``drawn``            :class:`Drawn`: a figure kept as Plotly's dictionary of it, drawn by Streamlit as it is
``membership_game``  the audit lab's membership-inference game (guess buttons, the attacker's rounds, both scored)
``upload``           a student's own CSV file, read in the session only (the real-data page), or a bundled data set
``upload_limits``    uploads bounded where the server receives them: size, in memory only, one file per tab, closed
                     a minute after the tab
``preload``          what the pages import, imported before any page runs (a module is never half-imported
                     beside one)
``ast_lock``         ``ast.parse`` builds one tree at a time (CPython 3.11.7's data race between threads' trees)
``precompute``       ``./lab.sh precompute``: the stored sweeps of every page, at its defaults and on its grid,
                     from its settings (:mod:`app_pages.settings`)
``reproduce``        ``./lab.sh sweep``: a page's sweeps at a trial count beyond its slider, stored
===================  ================================================================================================
"""

from classroom.table import show_table

from .chrome import ASSETS, footer, guard, navigation_pages, page_link, presentation_mode, setup_page
from .compute import figure, shared, snippet, sweep
from .membership_game import attacker_game
from .page import FIGURE_CALLS, Page, show_figure
from .params import (
                     ParamSpec,
                     controls,
                     delta_spec,
                     epsilon_spec,
                     log_grid,
                     monte_carlo_spec,
                     n_spec,
                     nearest,
                     parse_param,
                     seed_spec,
                     trials_spec,
)
from .text import PageText
from .upload import column_of

__all__ = ["ASSETS", "footer", "guard", "navigation_pages", "page_link", "presentation_mode", "setup_page", "shared",
           "figure", "snippet", "sweep", "FIGURE_CALLS", "Page", "show_figure", "ParamSpec", "controls", "delta_spec",
           "epsilon_spec", "log_grid", "monte_carlo_spec", "n_spec", "nearest", "parse_param", "seed_spec",
           "trials_spec", "PageText", "attacker_game", "show_table", "column_of"]
