"""The page skeleton, written once: a page script holds only its topic.

    page = ui.Page(__file__, SPECS)                      # title and icon from the registry, controls from the URL
    page.intro()                                         # the Markdown's <!-- intro --> part (formulas always shown)
    with page.section("one-run"):                        # heading + prose from the Markdown; errors stay in the section
        page.figure("clipping", figures.clipping, n=page["n"], ...)   # with its one-sentence summary
        page.draw_again()                                # the next seed for the one-run pictures
        if page.predict(lesson.radius_question, ...):    # predict, then reveal: the figure after the guess
            page.figure("tradeoff", ...)
    page.takeaways(lesson.takeaways, eps=…)              # "What to notice": computed in the lesson, shown here
    page.go_deeper()                                     # the <!-- go-deeper --> part and every figure's downloads

Prose is hidden in presentation mode (``?present=1``); headings, formulas, figures, questions and takeaways are not.
``?teacher=1`` adds, folded, the Markdown's ``<!-- teacher -->`` part (discussion, live settings) and each question's
answer for the teacher; the class's answers still wait for "Reveal" (``?reveal=1`` shows them all at once).
A figure or text drawn from a quick pass (:mod:`ui.progressive`) says so, and the page reruns by itself when the
requested runs are ready.

A question's answer waits for its "Reveal" everywhere: a lesson call given ``revealed`` (takeaways, a caption, a table,
a figure: ``page.takeaways(lesson.takeaways, ..., revealed=page.revealed("radius"))``) holds back what would answer
it, with a line saying it comes after the guess; the student's handout always gets that held-back form, and leaves
out the figures and prose behind a question; the teacher's edition gets the answers.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import plotly.graph_objects as go
import streamlit as st

import registry
from classroom import check_yourself, handout, poll, progress_storage
from classroom.embed import show_embed
from classroom.share import PRESENT, public_page_link, public_url
from classroom.table import show_table
from dpcore import exercises, viz
from dpcore.lessons.glossary import TERMS
from dpcore.lessons.plain_words import epsilon_in_words
from dpcore.lessons.questions import Question
from dpcore.viz.summary import figure_name, figure_summary, figure_table

from . import compute, frames
from .chrome import TEACHER, guard, page_link, presentation_mode, setup_page, teacher_mode
from .drawn import Drawn
from .params import SEED_KEY, SEED_MAX, TRIALS_KEY, ParamSpec, controls
from .progressive import Preview
from .text import PageText

__all__ = ["Page", "show_figure", "live_links", "FIGURE_CALLS", "PAGE_SPECS"]

ROOT = Path(__file__).resolve().parents[1]
FIGURE_CALLS = "_figure_calls"  # session-state key: {figure key: (builder, kwargs)} of the figures offered for download
PAGE_SPECS = "_page_specs"  # session-state key: the controls the page drew (for the tests)
GUESSES = "_guesses"  # session-state key: {(page, question key): the guess's index, or None} of the revealed questions
GROUPS = "_control_groups"  # session-state key: {page: the group (data set) whose defaults its in-page controls have}
DEEPER = "go_deeper"  # session-state key: whether "Go deeper" is open (its content is built only then)
REVEAL = "reveal"  #: URL key: ``?reveal=1`` shows every figure at once, the questions answered
ANSWER = "answer_"  #: key prefix of the container holding a question's answer (a live region, focused after Reveal)
PEEK = "peek_"  #: key prefix of the teacher's folded copy of a question's answer (built only when opened)
#: key prefix of the container of a question's class poll in the teacher view, right under the question's prompt
TEACHER_POLL = "teacher_poll_"
NOTES = "teacher_notes"  #: key of the teacher's folded notes: discussion, settings to show live (built when opened)
LINK = re.compile(r"\]\((/[^)\s]*)\)")  # a Markdown link to a page of the lab: ](/path?query)
POLL_SECONDS = 1.0  # how often a page with quick previews checks whether the requested runs are ready


TABLE = "table_"  #: key prefix of the "Data as a table" expander under a chart (its table is built only when open)
WORDS = "words_"  #: key prefix of the container of a chart's "In words" paragraph (assets/a11y.js: its description)
FRAME = "table_frame_"  #: key prefix of the frame chosen for an animated chart's table


def show_figure(fig: go.Figure | Drawn, key: str, animated: bool = False, summary: str | None = None) -> None:
    """Show a figure of :mod:`dpcore.viz` (already styled), or what is drawn of it, under a stable key; an animated one
    in its own fragment, so that pressing Play or dragging its slider never reruns the page.

    The chart's accessible name is its title (:func:`dpcore.viz.summary.figure_name`: the same at every rerun).
    An animated chart opens on the frame its link names (``?frame_<key>=…``, :mod:`ui.frames`), saying so.
    Given ``summary``, the chart is followed by it ("In words", in a container keyed ``words_<key>`` that
    ``assets/a11y.js`` makes the chart's accessible description, ``aria-describedby``) and by its data as a table,
    built only when the student opens "Data as a table" (in a fragment of its own, so opening it reruns neither the
    page nor the chart)."""
    linked = None
    if animated and isinstance(fig, dict):  # the frame a link asks for (ui.frames), and the mark for a11y.js
        shown, linked = frames.from_link(fig, key)
        if linked is not None and summary is not None:
            summary = figure_summary(shown)
        fig = shown

    def draw() -> None:
        chart = fig.chart() if isinstance(fig, Drawn) else fig
        st.plotly_chart(chart, key=key, width="stretch", theme=None, config={"displaylogo": False},
                        alt=figure_name(fig))
    st.fragment(draw)() if animated else draw()
    if linked is not None:
        st.caption(linked)
    if summary is not None:
        with st.container(key=f"{WORDS}{key}"):
            st.caption(f"In words: {summary}")
        st.fragment(_data_table)(fig, key)


def _data_table(fig: go.Figure | Drawn, key: str) -> None:
    """The chart's data in words and rounded numbers (:func:`dpcore.viz.summary.figure_table`), in an expander
    whose content is built only when it is open; an animated chart's table shows one frame, the one it opens on
    unless another is chosen."""
    with st.expander("Data as a table", key=f"{TABLE}{key}", on_change="rerun", icon=":material/table_rows:") as box:
        if not box.open:
            return
        frames = [frame.get("name") for frame in (fig.get("frames") if isinstance(fig, dict) else fig.frames) or []]
        frame = None
        if frames:
            slider = ((fig.get("layout") if isinstance(fig, dict) else fig.layout.to_plotly_json()) or {})
            steps = (slider.get("sliders") or [{}])[0]
            opening = (steps.get("steps") or [{}])[steps.get("active") or 0].get("label", frames[0])
            prefix = (steps.get("currentvalue") or {}).get("prefix") or "frame: "
            frame = st.selectbox("Frame", frames, index=frames.index(opening) if opening in frames else 0,
                                 key=f"{FRAME}{key}", format_func=lambda name: f"{prefix}{name}")
        columns, rows = figure_table(fig, frame)
        st.table({column: [_cell(row[i]) for row in rows] for i, column in enumerate(columns)}, hide_index=True,
                 height=min(40 + 36 * len(rows), 420), alt=f"The data of the chart: {figure_name(fig)}")


def _cell(text: str) -> str:
    """A table cell's text, its Markdown characters escaped (st.table reads cells as Markdown)."""
    return "".join(f"\\{char}" if char in "\\`*_[]<>#|~$" else char for char in text)


class Page:
    """One page of the lab: its registry entry, its controls, its Markdown, its sections and downloads.

    Parameters
    ----------
    script : str
        The page script's ``__file__``; its Markdown is the ``.md`` file beside it.
    specs : sequence of ParamSpec
        The page's controls (sidebar widgets mirrored in the URL).
    """

    def __init__(self, script: str, specs: Sequence[ParamSpec] = ()) -> None:
        path = Path(script).resolve()
        self.info = registry.by_script(path.relative_to(ROOT).as_posix())
        compute.start_run()
        setup_page(self.info.heading, self.info.icon)
        reproduced = compute.reproduced_trials(self.info.url_path)  # ./lab.sh sweep: trial counts beyond the slider
        specs = [spec.with_options(reproduced) if spec.key == TRIALS_KEY else spec for spec in specs]
        _glossary(_page_terms(path))  # at the top of the sidebar, under the pages, before the controls
        self.params = controls(specs)
        if "eps" in self.params:  # what the chosen ε means, in odds, under the controls
            st.sidebar.caption(epsilon_in_words(self.params["eps"], self.params.get("delta", 0.0)))
        st.session_state[PAGE_SPECS] = tuple(specs)
        self._status = st.empty()
        self.present = presentation_mode()
        self.teacher = teacher_mode()
        poll.student_poll(self.present)  # a class poll's question, when the link names a room (?room=CODE)
        self.text = PageText.load(path.with_suffix(".md"))
        self._downloads: dict[str, tuple[Callable, dict, Drawn | None]] = {}  # key -> builder, kwargs, figure
        self._notes: Any = None  # where the teacher's notes go (filled last, when every control is in the URL)
        #: Python lines defining ``column`` from the student's own file, for the snippets of figures drawn from an
        #: uploaded column (a snippet never holds the data itself: :func:`ui.compute.snippet`)
        self.column_code: str | None = None
        # what the page showed, in order, for the handout (classroom.handout; a figure may be lazy)
        self._outline: list = []
        self._behind = False  # whether what the page shows now is behind a revealed question (its answer)

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def control(self, spec: ParamSpec, where: Any = None) -> Any:
        """A control drawn here, in the page beside the figure it changes (not in the sidebar), or in the container
        ``where`` (a column), mirrored in the URL like the sidebar's; returns its value."""
        st.session_state[PAGE_SPECS] = (*st.session_state[PAGE_SPECS], spec)
        self.params[spec.key] = controls([spec], location=where or "main")[spec.key]
        return self.params[spec.key]

    def controls_for(self, group: str, specs: Sequence[ParamSpec]) -> dict[str, Any]:
        """Controls drawn in the page whose defaults belong to ``group`` (a data set): when the group changes, they
        start again from its defaults (their widgets and URL keys are forgotten first); returns their values."""
        seen = st.session_state.setdefault(GROUPS, {})
        if seen.get(self.info.url_path, group) != group:
            for spec in specs:
                st.session_state.pop(f"w_{spec.key}", None)
                st.query_params.pop(spec.key, None)
        seen[self.info.url_path] = group
        pairs = [specs[start:start + 2] for start in range(0, len(specs), 2)]  # two a row (one on a phone)
        return {spec.key: self.control(spec, column) for pair in pairs for column, spec in zip(st.columns(2), pair)}

    # -------------------------------------------------------------------- text
    def prose(self, part: str, **fields: Any) -> None:
        """The Markdown part ``part`` (after its heading): prose hidden in presentation mode, formulas always."""
        for kind, text in self.text.blocks(part, **fields):
            self._record(handout.Text(kind, text))
            if kind == "formula":
                st.latex(text)
            elif not self.present:
                st.markdown(text)

    def intro(self, **fields: Any) -> None:
        """The page's opening: what a student can do after it (its registry objectives, hidden in presentation
        mode), then the Markdown part ``intro``."""
        if self.info.objectives and not self.present:
            st.markdown("**After this page you can**\n" + "\n".join(f"- {line}" for line in self.info.objectives))
            st.caption(f"About {self.info.minutes} minutes in class. First: {self.info.needs}.")
        self.prose("intro", **fields)
        if self.teacher and "teacher" in self.text.parts:
            self._notes = st.empty()  # filled by go_deeper(), once the controls drawn in the page are in the URL too

    def _teacher_notes(self) -> None:
        """The teacher view's notes (the Markdown part ``teacher``) under the intro, folded: nothing of them is sent
        to the screen (a projector) until the teacher opens them. Their "settings to show live" links keep the
        page's current settings and modes (``present=1`` too), changing only what each link sets."""
        if self._notes is None:
            return
        with self._notes.container(), st.expander("Teacher view: questions for discussion, settings to show live",
                                                  key=NOTES, on_change="rerun", icon=":material/school:") as notes:
            if notes.open:
                st.markdown(live_links("\n\n".join(text for _, text in self.text.blocks("teacher")),
                                       self.info.url_path, st.query_params.to_dict()))

    @contextmanager
    def section(self, part: str, **fields: Any) -> Iterator[None]:
        """A section: its heading and prose from the Markdown part ``part``, then the body, whose dpcore errors are
        shown inside the section (the sections after it still run)."""
        heading = self.text.heading(part)
        self._behind = False  # a question's answer ends with its section
        if heading:
            st.subheader(heading)
            self._outline.append(handout.Heading(heading))
        try:
            with guard():
                self.prose(part, **fields)
                yield
        finally:
            self._behind = False

    # -------------------------------------------------------------------- figures
    def figure(self, key: str, builder: Callable[..., go.Figure], *, animated: bool = False, download: bool = False,
               answers: bool = False, **kwargs: Any) -> None:
        """Build (cached, see :func:`ui.compute.figure`) and show ``builder(**kwargs)``; ``download=True`` offers its
        data, HTML and notebook snippet under "Go deeper". A sentence computed from the figure's data says what it
        shows, for a screen reader and for the back row (:func:`dpcore.viz.summary.figure_summary`).

        A builder given ``revealed`` holds back what answers a question until it is true; ``answers=True`` says that
        the figure (drawn only after "Reveal") answers a question asked in an earlier section (one drawn in the
        question's own section after it needs no mark): the student's handout leaves it out."""
        shown = len(compute.previews())
        fig, summary = compute.described(builder, self.present, **kwargs)
        show_figure(fig, key, animated, summary)
        self._record(functools.partial(_handout_chart, builder, kwargs) if self.present  # at its usual size
                     else handout.Chart(fig, summary), kwargs,
                     lambda revealed: _handout_chart(builder, {**kwargs, "revealed": revealed}), answers)
        _preview_note(compute.previews(shown))
        if download:
            self._downloads[key] = (builder, kwargs, None if self.present else fig)

    def draw_again(self) -> None:
        """A button that redraws the page's one-run pictures with the next random seed: the URL's ``seed`` advances
        with it, so the address still reproduces what is on screen."""
        following = (self.params[SEED_KEY] + 1) % (SEED_MAX + 1)
        st.button("Draw again", key="draw_again", icon=":material/casino:", on_click=_set_seed, args=(following,),
                  help=f"New random data and noise for the one-run pictures: seed {following}.")

    # -------------------------------------------------------------------- predict, then reveal
    def predict(self, ask: Callable[..., Question], /, *args: Any, **kwargs: Any) -> bool:
        """Ask the question ``ask(*args, **kwargs)`` (a lesson function, computed once per setting:
        :func:`ui.compute.shared`) before the figure that answers it; return whether to show the figure.

        The student picks a choice and reveals; the answer, computed from the numbers the figure draws, appears with
        the figure, in a container keyed ``answer_<question key>``: ``assets/a11y.js`` makes it a polite live region
        and moves the keyboard focus to it right after the reveal. A revealed question stays revealed in this browser
        tab while the settings change (its answer is recomputed for them). ``?reveal=1`` shows everything at once
        (a handout, a test). The teacher view reveals nothing by itself (the class guesses first): it adds the
        answer in a folded box, sent to the screen only when the teacher opens it."""
        question = compute.shared(ask, *args, **kwargs)
        self._outline.append(handout.Ask(question.prompt, tuple(question.choices), question.feedback(None)))
        guesses = st.session_state.setdefault(GUESSES, {})
        key = (self.info.url_path, question.key)
        with st.container(border=True, key=f"question_{question.key}"):
            st.markdown(f"{'### ' if self.present else ''}**Predict first:** {question.prompt}")
            if self.revealed(question.key):
                self._behind = True  # the rest of the section is the answer: not in the student's handout
                guess = guesses.get(key)
                # assets/a11y.js makes this container a live region (a screen reader reads its new answer when the
                # settings change) and moves the keyboard focus to it right after "Reveal", so it is read at once.
                with st.container(key=f"{ANSWER}{question.key}"):
                    if guess is None:
                        st.markdown(f":material/lightbulb: {question.feedback(guess)}")
                    else:
                        (st.success if guess == question.answer else st.error)(question.feedback(guess))
                if self.teacher:  # the class poll's release stays in view after the answer
                    poll.teacher_poll(self.info.url_path, question, self.present, may_open=False)
                return True
            if self.teacher:  # the class poll right under the question: its room on a projector's first screen
                with st.container(key=f"{TEACHER_POLL}{question.key}"):
                    poll.teacher_poll(self.info.url_path, question, self.present)
            radio = f"guess_{question.key}"
            st.radio("Your guess", question.choices, index=None, key=radio)

            def reveal() -> None:
                chosen = st.session_state.get(radio)
                guesses[key] = None if chosen is None else question.choices.index(chosen)
            st.button("Reveal the answer and the figure", key=f"reveal_{question.key}", on_click=reveal,
                      icon=":material/visibility:", type="primary")
            if self.teacher:
                with st.expander("For the teacher: the answer, before the class sees it", key=f"{PEEK}{question.key}",
                                 on_change="rerun", icon=":material/school:") as peek:
                    if peek.open:
                        st.markdown(f":material/lightbulb: {question.feedback(None)}")
        return False

    def revealed(self, key: str) -> bool:
        """Whether the question ``key`` of this page is answered on screen: revealed in this browser tab, or every
        question at once (``?reveal=1``). A lesson call given it as ``revealed`` holds back what would answer the
        question until then (a part of the page above the question asks here, before :meth:`predict` is reached)."""
        return (self.info.url_path, key) in st.session_state.get(GUESSES, {}) or st.query_params.get(REVEAL) == "1"

    def _record(self, item: Any, kwargs: dict | None = None, again: Callable[[bool], Any] | None = None,
                answers: bool = False) -> None:
        """Keep ``item`` (what the page just showed, or its maker) for the handout (:mod:`classroom.handout`). Made by a
        lesson call given ``revealed`` among ``kwargs``: both forms (``again(revealed)`` makes the one not shown,
        when the handout is made), the held-back one for the student's handout, the answered one for the teacher's
        edition. Behind a revealed question (or ``answers``): for the teacher's edition only."""
        if kwargs is not None and "revealed" in kwargs and again is not None:
            other = functools.partial(again, not kwargs["revealed"])
            item = _Held(other, item) if kwargs["revealed"] else _Held(item, other)
        elif self._behind or answers:
            item = _Held(None, item)
        self._outline.append(item)

    # -------------------------------------------------------------------- computed text
    def caption(self, text: Callable[..., str], /, *args: Any, **kwargs: Any) -> None:
        """A caption computed by the lesson function ``text(*args, **kwargs)`` (once per setting, for every session:
        :func:`ui.compute.shared`); an error shows as a message instead."""
        with guard():
            st.caption(said := compute.shared(text, *args, **kwargs))
            self._record(handout.Text("prose", said), kwargs, lambda revealed: handout.Text(
                "prose", compute.shared(text, *args, **{**kwargs, "revealed": revealed})))

    def warning(self, text: Callable[..., str], /, *args: Any, **kwargs: Any) -> None:
        """A warning computed by the lesson function ``text(*args, **kwargs)``, shown when it says something (""
        means nothing to warn of); an error shows as a message instead."""
        with guard():
            said = compute.shared(text, *args, **kwargs)
            if said:
                st.warning(said, icon=":material/warning:")

    def table(self, rows: Callable[..., Sequence[dict]], /, *args: Any, **kwargs: Any) -> None:
        """A table of the rows the lesson function ``rows(*args, **kwargs)`` computes (once per setting:
        :func:`ui.compute.shared`), every column in view on every screen (:func:`classroom.table.show_table`)."""
        show_table(compute.shared(rows, *args, **kwargs))

    def takeaways(self, lines: Callable[..., Sequence[str]], /, *args: Any, **kwargs: Any) -> None:
        """"What to notice": the bullet points the lesson function ``lines(*args, **kwargs)`` computes from the
        numbers on screen; an error shows as a message under the heading (the rest of the page still runs)."""
        st.subheader("What to notice")
        with guard():
            shown = len(compute.previews())
            notice = compute.shared(lines, *args, **kwargs)
            st.markdown("\n".join(f"- {line}" for line in notice))
            self._record(handout.Notice(tuple(notice)), kwargs, lambda revealed: handout.Notice(tuple(
                compute.shared(lines, *args, **{**kwargs, "revealed": revealed}))))
            _preview_note(compute.previews(shown))

    def go_deeper(self, **fields: Any) -> None:
        """The Markdown part ``go-deeper`` (algorithms, guarantees, references), then the downloads of one figure,
        chosen among those shown with ``download=True``: its data (CSV), the figure (HTML), a notebook snippet; then
        the code that embeds the page in slides (:func:`classroom.embed.show_embed`); last, the link to the next page of
        the course."""
        st.session_state[FIGURE_CALLS] = {key: call[:2] for key, call in self._downloads.items()}
        self._check_yourself()
        self._teacher_notes()
        self._refine_when_ready()
        with st.expander("Go deeper: algorithms, guarantees, references, downloads", key=DEEPER,
                         on_change="rerun") as deeper:
            if deeper.open:  # built when opened: a closed expander costs the server nothing
                self._deeper(fields)
        self.next_page()

    def _check_yourself(self) -> None:
        """The page's exercises (:mod:`classroom.check_yourself`), after its lesson; in the handout, each as a
        question with a box (the student's variant), its worked answer in the teacher's edition."""
        listed = exercises.for_page(self.info.url_path)
        if not listed:
            return
        check_yourself.show(self.info.url_path, self.params, self.teacher)
        self._outline.append(handout.Heading(check_yourself.HEADING))
        progress = progress_storage.current()
        for number, exercise in enumerate(listed, start=1):
            made = check_yourself.variant_of(exercise, self.info.url_path, progress)
            self._outline.append(handout.Exercise(f"Exercise {number}: {exercise.title}", made.prompt, made.choices,
                                                  made.solution))

    def _deeper(self, fields: dict) -> None:
        for _, text in self.text.blocks("go-deeper", **fields):
            st.markdown(text)
        if self._downloads:
            figures = {key: shown or compute.figure(builder, False, **kwargs)
                       for key, (builder, kwargs, shown) in self._downloads.items()}
            key = st.selectbox("Download a figure", list(figures), key="download_figure",
                               format_func=lambda key: figures[key].title or key)
            builder, kwargs, _ = self._downloads[key]
            _downloads(key, figures[key], compute.snippet(builder, self.column_code, **kwargs))
        self._handouts(fields)
        show_embed(self.info, self.present)

    def _handouts(self, fields: dict) -> None:
        """The page as an offline lesson (:mod:`classroom.handout`) at the settings on screen: the student's handout
        and, in the teacher view, the teacher's edition with the answers and the discussion notes. Each document
        (about 5 MB, nearly all plotly.js) is made when its button is clicked, so the server keeps none of them between
        clicks."""
        editions: list[tuple[str, handout.Edition, str]] = [("Handout (offline lesson, HTML)", "student", "handout")]
        if self.teacher:
            editions.append(("Teacher's edition (with answers)", "teacher", "teachers-edition"))
        outline = [_made(item, self.teacher) for item in self._outline]
        specs = st.session_state[PAGE_SPECS]
        settings = [(spec.label, spec.show(self.params[spec.key])) for spec in specs if spec.key in self.params]
        query = {key: st.query_params.get_all(key) for key in st.query_params}
        notes = self.text.blocks("teacher") if "teacher" in self.text.parts else []
        lesson = functools.partial(handout.handout_html, self.info, outline, settings, lab=public_url()[0],
                                   link=public_page_link(self.info.url_path, query),
                                   notes=[handout.Text(*block) for block in notes],
                                   deeper=[handout.Text(*block) for block in self.text.blocks("go-deeper", **fields)])
        for column, (label, edition, name) in zip(st.columns(len(editions)), editions):
            column.download_button(label, functools.partial(lesson, edition=edition),  # built on click
                                   file_name=f"{self.info.url_path or 'home'}-{name}.html", mime="text/html",
                                   key=f"handout_{edition}", on_click="ignore", icon=":material/menu_book:")

    def next_page(self) -> None:
        """The link to the next page of the course (registry order); the last page leads back to the start."""
        following = registry.next_page(self.info)
        page_link(following, f"Next: {following.title}" if following.url_path else "Back to the start: the course",
                  ":material/arrow_forward:")

    def _refine_when_ready(self) -> None:
        """If quick passes are on screen: say so at the top, with the progress of the requested runs and the queue
        ahead of them, and rerun the page once every requested run is ready."""
        compute.release_superseded()
        pending = compute.previews()
        if not pending:
            return

        @st.fragment(run_every=POLL_SECONDS)
        def progress() -> None:
            if all(preview.ready for preview in pending):
                st.rerun()
            st.info(_refining_text(pending, compute.queued_ahead(pending), compute.line_full()),
                    icon=":material/hourglass_top:")
        with self._status.container():
            progress()


def live_links(markdown: str, url_path: str, current: dict[str, str]) -> str:
    """The teacher's Markdown with each link to a page of the lab (``](/path?query)``) keeping the settings on screen
    (``current``, the URL's query): a link to this page (``url_path``) keeps every current key but those it sets; a
    link to another page keeps the modes (presentation, teacher). So "Settings to show live", opened in a new tab from
    a projector, opens in presentation mode at the page's settings, changed only where the link says."""
    def keep(match: re.Match) -> str:
        parts = urlsplit(match.group(1))
        setting = dict(parse_qsl(parts.query, keep_blank_values=True))
        kept = current if parts.path.strip("/") == url_path else {key: current[key] for key in (PRESENT, TEACHER)
                                                                   if key in current}
        query = urlencode({**setting, **{key: value for key, value in kept.items() if key not in setting}},
                          safe=",:")
        return f"]({parts.path}{'?' if query else ''}{query})"
    return LINK.sub(keep, markdown)


def _made(item: Any, teacher: bool) -> Any:
    """An item of the page's outline as the handout takes it: made now if it was kept as its maker (a figure shown
    in presentation mode, the form of a held-back part the page did not show); the teacher's form of a
    :class:`classroom.handout.Held` part only for the teacher (``teacher``: the teacher's edition is offered)."""
    if isinstance(item, _Held):
        return handout.Held(_made(item.student, teacher), _made(item.teacher, teacher) if teacher else None)
    return item() if callable(item) else item


@dataclass(frozen=True)
class _Held:
    """A :class:`classroom.handout.Held` part as the page keeps it: either form may still be its maker (made by
    :func:`_made` when the handout is made)."""

    student: Any
    teacher: Any


def _handout_chart(builder: Callable[..., go.Figure], kwargs: dict) -> handout.Chart:
    """A figure shown in presentation mode, as the handout draws it: at the usual size (built once, cached)."""
    return handout.Chart(*compute.described(builder, False, **kwargs))


def _set_seed(seed: int) -> None:
    st.session_state[f"w_{SEED_KEY}"] = seed


def _page_terms(script: Path) -> tuple[str, ...]:
    """The glossary terms the page ``script`` uses: its lesson module's ``GLOSSARY`` (none for a page without one)."""
    try:
        lesson = importlib.import_module(f"dpcore.lessons.{script.stem}")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(lesson, "GLOSSARY", ()))


def _glossary(page_terms: Sequence[str] = ()) -> None:
    """The lab's glossary (:data:`dpcore.lessons.glossary.TERMS`), folded at the top of the sidebar on every page,
    under the list of pages and above the controls, so a student meeting a word finds it without scrolling; it says
    which of its words this page uses (``page_terms``)."""
    with st.sidebar.expander("Glossary", icon=":material/menu_book:"):
        st.caption(f"{len(TERMS)} words the pages use, A to Z (Greek letters by their names).")
        if page_terms:
            st.caption("On this page: " + ", ".join(term for term in TERMS if term in page_terms) + ".")
        st.markdown("\n".join(f"- **{term}**: {definition}" for term, definition in TERMS.items()))


def _refining_text(pending: list[Preview], ahead: int, full: bool = False) -> str:
    """The banner over a page with quick passes: what they are, how far the requested runs are, the queue (``full``:
    the shared line is full)."""
    runs = {id(preview.future): preview for preview in pending}.values()  # a figure and a takeaway may share one
    done = sum(preview.ready for preview in runs)
    many = ahead > 1
    queue = (f" {ahead} computation{'s' if many else ''} for other pages or visitors {'are' if many else 'is'} queued "
             "ahead of this page's on the shared server." if ahead else "")
    if full:
        queue += (" The shared server's line is full: this page's computations may be set aside for a while and asked "
                  "for again by themselves; settings stored with the lab still answer at once.")
    restarted = ("The computing process had stopped (for example, out of memory) and was started again: these runs "
                 "started over. " if any(preview.restarted for preview in runs) else "")
    return (f"{restarted}Quick preview: some results on this page come from another Monte Carlo run than the one you "
            "asked for (fewer trials, or other random numbers; each says which). They are replaced by themselves as "
            f"the requested runs finish in the background: {done} of {len(runs)} done.{queue}")


def _preview_note(previews: list[Preview]) -> None:
    """A caption under a result drawn from quick passes: what it shows instead of the requested run, and that the
    requested run replaces it by itself."""
    if previews:
        st.caption(_preview_text(min(previews, key=lambda preview: (preview.run is None,
                                                                    preview.trials / preview.requested))))


def _preview_text(preview: Preview) -> str:
    """The caption of one quick pass (see :class:`ui.progressive.Preview`)."""
    unit = f"Monte Carlo {preview.unit} per point"
    if preview.run is not None:
        return (f"Preview from Monte Carlo run {preview.run} ({preview.trials:,} {unit}): run "
                f"{preview.requested_run}, with {preview.requested:,}, replaces it by itself when ready.")
    if preview.trials > preview.requested:
        return (f"Preview from a stored run with {preview.trials:,} {unit}: the run with the {preview.requested:,} "
                "you asked for replaces it by itself when ready.")
    return (f"Quick preview from {preview.trials:,} of {preview.requested:,} {unit} (bands are wider than they will "
            f"be): it refines to all {preview.requested:,} by itself.")


#: Under the downloads: the CSV stays a plain table (a spreadsheet opens it as it is); the snippet needs ``dpcore``.
INSTALL_NOTE = ("The CSV holds the chart's numbers as a plain table. To rebuild them in Python you need dpcore, the "
                "lab's library (not on PyPI): in a copy of the lab's repository run `pip install -e \".[viz]\"` "
                "(the README's section \"dpcore in a notebook\" says more); the Python snippet starts with the same "
                "steps.")


def _downloads(name: str, drawn: Drawn, snippet: str) -> None:
    """Three downloads, generated on click; clicking does not rerun the page (no animation restart)."""
    files: list[tuple[str, str | Callable[[], str], str, str]] = [  # (label, data or its maker, file name, type)
        ("Data (CSV)", lambda: viz.figure_table_csv(drawn.figure()), f"{name}.csv", "text/csv"),
        ("Figure (HTML)", lambda: viz.figure_html(drawn.figure()), f"{name}.html", "text/html"),
        ("Python snippet", snippet, f"{name}.py", "text/x-python")]
    for column, (label, data, file_name, mime) in zip(st.columns(len(files)), files):
        column.download_button(label, data, file_name=file_name, mime=mime, key=f"download_{file_name}",
                               on_click="ignore", icon=":material/download:")
    st.caption(INSTALL_NOTE)
