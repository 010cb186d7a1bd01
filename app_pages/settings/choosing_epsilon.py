"""Choosing ε: the controls, and the plan's editor.

The plan (its releases, each with its target) is one line of text in the URL (``plan``), edited by plain widgets in
the page (:func:`edit_plan`: each release's kind, target ±t, confidence c, noise and the range, people or bins its
kind needs; "Add a release", "Remove release i"), so a link reproduces the plan; a link whose plan cannot be read
gets a message and the worked example. δ and the seed of the simulated releases are in the sidebar, the total budget
ε beside its section. The page runs no stored sweep: its numbers are exact, or simulations of a second.
"""

from dataclasses import replace

import streamlit as st

import ui
from dpcore import planning
from dpcore.core import InvalidParameterError
from dpcore.lessons import choosing_epsilon as lesson


def _plan_words(plan: str) -> str:
    """The plan in words (messages, the handout's settings), the default named as the worked example."""
    words = lesson.plan_words(plan)
    return f"the worked example: {words}" if plan == lesson.WORKED else words


PLAN = ui.ParamSpec(key="plan", label="Releases planned", kind="text", default=lesson.WORKED,
                    reader=lesson.read_plan, words=_plan_words,
                    help="Each release with its target: within ±t of the exact value with probability c.")
SPECS = [
    PLAN,
    replace(ui.delta_spec(), help="The δ of the whole plan, shared equally by its releases with Gaussian noise "
                                  "(the others have δ = 0). Rule of thumb: much smaller than 1/n."),
    replace(ui.seed_spec(), help="Same seed, same simulated releases in the table and the picture of how far they "
                                 "land: share the link to show exactly these."),
]
BUDGET = ui.ParamSpec(key="budget", label="Total budget ε (log scale)", kind="log", default=1.0, low=0.05, high=10.0,
                      options=tuple(ui.log_grid(0.05, 10.0)),
                      help="A total ε fixed in advance, to be shared by every release of the plan.")
IN_PAGE = (BUDGET,)  #: drawn beside the budget's table

#: The settings each kind of release needs, after its kind: the noise is Laplace or Gaussian but for a median
FIELDS = {"count": ("error", "confidence", "mechanism"),
          "mean": ("error", "confidence", "mechanism", "lower", "upper", "n"),
          "histogram": ("error", "confidence", "mechanism", "bins"),
          "quantile": ("error", "confidence", "lower", "upper", "n", "grid")}
_PLAN_STATE = f"w_{PLAN.key}"  # where ui.params keeps the plan (a text control has no widget of its own)
_MESSAGE = "plan_message"  # session-state key: why the last change of the plan was not made


def _key(index: int, field: str) -> str:
    """The widget key of a release's setting."""
    return f"plan_{index}_{field}"


def _edit(index: int, fields: tuple[str, ...]) -> None:
    """A widget of release ``index`` moved: the plan takes its settings ``fields``, or keeps its own with a message."""
    state = st.session_state
    plan_releases = lesson.releases(state[_PLAN_STATE])
    if index >= len(plan_releases):  # a widget of a release removed in the same run: nothing to change
        return
    release = plan_releases[index]
    values = {field: getattr(release, field) for field in ("kind", *FIELDS["mean"], "bins", "grid")}
    values.update({field: state[_key(index, field)] for field in fields if _key(index, field) in state})
    _change(lambda plan: lesson.edited(plan, index, **values))


def _change(step) -> None:
    """Apply ``step`` (plan text -> plan text) to the plan, or say why it cannot be."""
    state = st.session_state
    try:
        state[_PLAN_STATE] = step(state[_PLAN_STATE])
        state.pop(_MESSAGE, None)
    except InvalidParameterError as refused:
        state[_MESSAGE] = str(refused)


def _confidence_text(confidence: float) -> str:
    return f"{100 * confidence:g} %"


def _widget(index: int, field: str, release: planning.Release, fields: tuple[str, ...]) -> None:
    """Draw the widget of one setting of release ``index``, its value the plan's."""
    number = index + 1
    key = _key(index, field)
    value = getattr(release, field)
    st.session_state[key] = value
    edit = dict(key=key, on_change=_edit, args=(index, ("kind", *fields)))
    if field == "kind":
        st.selectbox(f"What is released (release {number})", planning.KINDS, format_func=lesson.KIND_NAMES.get,
                     help="A count (sensitivity 1), a mean of n values in a public range [L, U] (sensitivity "
                          "(U − L)/n), a histogram (every bin within ±t), or a median (its target in ranks: people).",
                     **edit)
    elif field == "error":
        unit = " in people (rank)" if release.kind == "quantile" else ""
        st.number_input(f"Target ±t{unit} (release {number})", min_value=min(1e-6, value), max_value=1e12, format="%g",
                        help="The release should land within ±t of the exact value.", **edit)
    elif field == "confidence":
        st.select_slider(f"Confidence c (release {number})", sorted({*lesson.CONFIDENCES, value}),
                         format_func=_confidence_text,
                         help="The probability of landing within ±t (for a histogram: every bin at once).", **edit)
    elif field == "mechanism":
        st.radio(f"Noise (release {number})", planning.MECHANISMS, format_func=lesson.MECHANISM_NAMES.get,
                 horizontal=True, help="Laplace noise gives pure ε-DP; Gaussian noise needs δ > 0.", **edit)
    elif field in ("lower", "upper"):
        st.number_input(f"{'Lowest value L' if field == 'lower' else 'Highest value U'} (release {number})",
                        min_value=-1e12, max_value=1e12, format="%g",
                        help="The public range: known without looking at the data (ages lie in [0, 120]).", **edit)
    else:
        label, low, high, help = {
            "n": ("People n", 1, 10**9, "How many people's values there are (public)."),
            "bins": ("Bins", 1, planning.MAX_BINS, "How many counts the histogram has."),
            "grid": ("Candidate values", 2, 10**6, "How many evenly spaced values of [L, U] the median is chosen "
                                                  "from."),
        }[field]
        st.number_input(f"{label} (release {number})", min_value=low, max_value=high, step=1, help=help, **edit)


def edit_plan(plan: str) -> None:
    """The plan's editor: each release of ``plan`` in a box of plain widgets (its kind, target, confidence, noise, and
    what its kind needs), a button to remove it, and one to add a release; every change goes into the URL's plan."""
    plan_releases = lesson.releases(plan)
    for index, release in enumerate(plan_releases):
        with st.container(border=True, key=f"plan_release_{index}"):
            st.markdown(f"**Release {index + 1}:** {release.describe()}")
            fields = FIELDS[release.kind]
            shown = ("kind", *fields)
            for start in range(0, len(shown), 4):  # four to a row (one on a phone)
                for column, field in zip(st.columns(4), shown[start:start + 4]):
                    with column:
                        _widget(index, field, release, fields)
            if release.kind == "quantile":
                st.caption("Noise: the exponential mechanism (pure ε-DP), which picks one of the candidate values.")
            st.button(f"Remove release {index + 1}", key=f"plan_remove_{index}", icon=":material/delete:",
                      disabled=len(plan_releases) == 1, on_click=_change,
                      args=(lambda text, index=index: lesson.removed(text, index),))
    st.button("Add a release", key="plan_add", icon=":material/add:",
              disabled=len(plan_releases) >= planning.MAX_RELEASES, on_click=_change, args=(lesson.added,))
    message = st.session_state.pop(_MESSAGE, None)
    if message:
        st.warning(message, icon=":material/warning:")
