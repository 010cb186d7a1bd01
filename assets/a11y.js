// Keyboard and screen-reader access to what Streamlit and Plotly draw (loaded once per page by ui.setup_page).
// Charts render asynchronously and re-render, so one MutationObserver re-applies everything, idempotently:
// - an animated chart's Play and Pause become buttons (Tab, Enter or Space) and its frame slider a slider (arrows,
//   Home, End, Page Up/Down), which drive the figure's own frames (Plotly.animate with the slider step's arguments,
//   as a click on that step does) without rerunning the page; Play and Pause are announced;
// - Plotly's toolbar (the modebar) leaves the Tab order: it stays usable with a mouse;
// - a chart is read as its name (its title, Streamlit's role="figure" with aria-label) and its description, the
//   "In words" paragraph under it (ui.page.show_figure: a container keyed words_ plus the chart's key, tied to the
//   chart with aria-describedby): what Plotly draws (tick labels, legend, titles, hover layer, the toolbar's icons)
//   is hidden from screen readers, all but an animated chart's Play, Pause and frame slider, which stay controls;
// - a question's answer (ui.page.Page.predict: a container keyed answer_ plus the question key) is a polite live
//   region, and after "Reveal" focus moves to it once, so it is read at once instead of focus falling to the top of
//   the page;
// - after "Join" (the home page's class poll code), "Send my answer" (the poll's ballot) and a file chosen in the
//   real-data page's uploader, each of which reruns the page and removes what had the focus, focus moves, once the
//   run is over, to where the answer shows (the poll's box, a region named "Class poll"; the ballot's confirmation or
//   refusal; the column to choose, or the reader's message), and the live region reads it; the class's answers
//   revealed in the poll's box later (its 4 s check) are read once too;
// - "Check yourself" (classroom.check_yourself: a container keyed exercise_ plus the exercise's key per exercise):
//   after "Check", "Show the answer" and "Try a new one", each of which reruns the section and may remove what had
//   the focus, focus moves, once the run is over, to the exercise's first alert (the verdict: "Right.", "Not yet.",
//   a number to type; after "Show the answer", what to read), and the live region reads it; after "Try a new one"
//   (no alert left) to the new variant's answer box, and the question is read. The answer box's container (keyed
//   answer_ too) is no question's answer: it is left out of the Reveal's live regions;
// - "Add a release" and "Remove release N" (the plan's editor of the page "Choosing ε": containers keyed
//   plan_release_ plus the release's place, the buttons plan_add and plan_remove_ plus its place) rerun the page and
//   may remove the button that had the focus: once the run is over, focus moves to the new release's first control
//   (and its heading is read), or after a removal to "Add a release" (and the plan's size is read);
// - the material icon in a heading or an answer is decoration: hidden from screen readers ("Truncation bias", not
//   "content_cut icon Truncation bias");
// - the address bar follows an animated chart's frame (ui.frames): once the chart rests on a frame other than the one
//   the page opens it on, the link holds frame_CHART=FRAME (history.replaceState: no rerun, and nothing written
//   while Play runs), so a copied link opens the chart on the frame on screen.
(() => {
  if (window.dplabA11y) return;
  window.dplabA11y = true;
  const ANSWER = 'st-key-answer_', REVEAL = 'st-key-reveal_', WORDS = 'st-key-words_';
  const EXERCISE = 'st-key-exercise_';  // a "Check yourself" exercise (its answer box is keyed answer_ as well)
  const CONTROL = 'g.slider-group, g.updatemenu-button';  // what stays of a chart's drawing for a screen reader

  // One polite live region for what the charts do (visually hidden, outside Streamlit's tree).
  const announcer = document.createElement('div');
  announcer.id = 'dplab-announcer';
  announcer.setAttribute('role', 'status');
  announcer.setAttribute('aria-live', 'polite');
  announcer.style.cssText = 'position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;' +
    'clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0;';
  document.body.appendChild(announcer);
  const announce = (text) => {
    announcer.textContent = '';
    setTimeout(() => { announcer.textContent = text; }, 50);
  };

  // Pause (or a frame chosen while the animation plays) interrupts Plotly's running animation, and Plotly rejects
  // that animation's promise with nothing attached (with a mouse as with the keyboard): an "Uncaught (in promise)
  // undefined" that is no error. Only that one, right after such an interruption, is silenced.
  let interrupted = 0;
  window.addEventListener('unhandledrejection', (event) => {
    if (event.reason === undefined && Date.now() - interrupted < 2000) event.preventDefault();
  });

  const setAttributes = (element, attributes) => {
    for (const [name, value] of Object.entries(attributes)) {
      if (element.getAttribute(name) !== String(value)) element.setAttribute(name, String(value));
    }
  };

  // ------------------------------------------------------------------ animated charts
  const sliderOf = (gd) => (gd._fullLayout && gd._fullLayout.sliders && gd._fullLayout.sliders[0]) || null;
  const spoken = (label) => (label === 'inf' ? 'infinity' : label);
  const frameName = (slider) => ((slider.currentvalue && slider.currentvalue.prefix) || '').replace(/\s*=\s*$/, '');
  const frameText = (slider, index) => {
    const step = slider.steps[index];
    if (!step) return '';
    const value = slider.currentvalue || {};
    return `${value.prefix || ''}${spoken(step.label)}${value.suffix || ''}`;
  };

  const goToFrame = (gd, index) => {
    const slider = sliderOf(gd);
    if (!slider || !window.Plotly || !window.Plotly.animate) return;
    const last = slider.steps.length - 1;
    const step = slider.steps[Math.max(0, Math.min(last, index))];
    // The step's own arguments: what a click on that step of the slider does (it also moves the slider).
    interrupted = Date.now();
    // A newer key press interrupts this animation: Plotly then rejects its promise, which is no error.
    window.Plotly.animate(gd, ...step.args).then(() => syncSlider(gd), () => syncSlider(gd));
  };

  const syncSlider = (gd) => {
    const slider = sliderOf(gd);
    const group = gd.querySelector('g.slider-group');
    if (!slider || !group || !slider.steps || !slider.steps.length) return;
    const name = frameName(slider);
    setAttributes(group, {
      tabindex: 0, role: 'slider', 'aria-orientation': 'horizontal',
      'aria-label': name ? `Frame of the animation: ${name}` : 'Frame of the animation',
      'aria-valuemin': 0, 'aria-valuemax': slider.steps.length - 1, 'aria-valuenow': slider.active || 0,
      'aria-valuetext': frameText(slider, slider.active || 0),
    });
    if (!group.dplabKeys) {
      group.dplabKeys = true;
      group.addEventListener('keydown', (event) => {
        const current = sliderOf(gd);
        if (!current) return;
        const count = current.steps.length, at = current.active || 0, page = Math.max(1, Math.round(count / 5));
        const moves = {
          ArrowLeft: at - 1, ArrowDown: at - 1, ArrowRight: at + 1, ArrowUp: at + 1,
          PageDown: at - page, PageUp: at + page, Home: 0, End: count - 1,
        };
        if (!(event.key in moves)) return;
        event.preventDefault();
        event.stopPropagation();
        const target = Math.max(0, Math.min(count - 1, moves[event.key]));
        if (target !== at) goToFrame(gd, target);
      });
    }
  };

  const syncButtons = (gd) => {
    const slider = sliderOf(gd);
    const over = slider ? frameName(slider) : '';
    for (const button of gd.querySelectorAll('g.updatemenu-button')) {
      const label = (button.textContent || '').trim();
      const words = {
        Play: over ? `Play the animation over ${over}` : 'Play the animation',
        Pause: 'Pause the animation',
      }[label] || label;
      setAttributes(button, {tabindex: 0, role: 'button', 'aria-label': words});
      if (!button.dplabKeys) {
        button.dplabKeys = true;
        button.addEventListener('keydown', (event) => {
          if (event.key !== 'Enter' && event.key !== ' ') return;
          event.preventDefault();
          event.stopPropagation();
          // Plotly listens for a click on the button (d3); the click runs the button's own animate command.
          button.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
        });
        button.addEventListener('click', () => {
          interrupted = Date.now();
          const playing = (button.textContent || '').trim() === 'Play';
          setTimeout(() => {
            const now = sliderOf(gd);
            if (!now) return;
            announce(playing ? `Playing the animation over ${frameName(now)}.`
                             : `Paused at ${frameText(now, now.active || 0)}.`);
          }, 120);
        });
      }
    }
  };

  // Hidden from screen readers: every part of the drawing that holds no control (the plot's SVG, the hover layer,
  // the toolbar, tick labels, legend and titles beside the controls), and the drawing inside each control (its name
  // and value are its aria attributes). An SVG that holds controls is no image of its own (role none).
  const hide = (element) => {
    if (element.getAttribute('aria-hidden') !== 'true') element.setAttribute('aria-hidden', 'true');
  };
  const hideAround = (node) => {
    for (const child of node.children) {
      if (child.matches(CONTROL)) {
        for (const part of child.children) hide(part);
      } else if (child.querySelector(CONTROL)) {
        hideAround(child);
      } else {
        hide(child);
      }
    }
  };
  const drawing = (gd) => {
    for (const bar of gd.querySelectorAll('.modebar-container')) hide(bar);
    for (const svg of gd.querySelectorAll('svg.main-svg')) {
      if (!svg.querySelector(CONTROL)) {
        hide(svg);
        continue;
      }
      if (svg.getAttribute('aria-hidden') !== null) svg.removeAttribute('aria-hidden');  // it gained controls
      setAttributes(svg, {role: 'none'});
      hideAround(svg);
    }
  };

  // A chart's description is its "In words" paragraph (found by the chart's key).
  const describe = () => {
    for (const words of document.querySelectorAll(`[class*="${WORDS}"]`)) {
      const key = keyIn(words, WORDS);
      if (!key) continue;
      const id = `dplab-words-${key}`;
      if (words.id !== id) words.id = id;
      const chart = document.querySelector(`.st-key-${CSS.escape(key)} [data-testid="stPlotlyChart"]`);
      if (chart) setAttributes(chart, {'aria-describedby': id});
    }
  };

  const charts = () => {
    for (const gd of document.querySelectorAll('.js-plotly-plot')) {
      // The toolbar stays for the mouse; its eight buttons per chart are not Tab stops.
      for (const button of gd.querySelectorAll('.modebar-btn, .modebar a, .modebar button')) {
        if (button.getAttribute('tabindex') !== '-1') button.setAttribute('tabindex', '-1');
      }
      drawing(gd);
      if (!sliderOf(gd)) continue;
      syncButtons(gd);
      syncSlider(gd);
      if (!gd.dplabEvents && typeof gd.on === 'function') {
        gd.dplabEvents = true;
        for (const event of ['plotly_animatingframe', 'plotly_animated', 'plotly_sliderchange', 'plotly_redraw',
                             'plotly_relayout']) {
          gd.on(event, () => setTimeout(() => syncSlider(gd), 0));
        }
        for (const event of ['plotly_animatingframe', 'plotly_animated', 'plotly_animationinterrupted',
                             'plotly_sliderchange', 'plotly_afterplot']) {
          gd.on(event, () => {
            if (event === 'plotly_afterplot') gd.dplabStale = false;  // drawn anew: this page's
            frameKeysSoon();
          });
        }
      }
    }
  };

  // ------------------------------------------------------------------ the link follows the frame
  // Each animated chart carries layout.meta.dplab_frame = {key: its URL key, start: the frame the page opens it on
  // without that key}. The address holds key=frame while the chart rests elsewhere than on start, and loses it when
  // the chart is back there. Written a second after the last frame change, so Play (a frame every 0.8 s) writes once,
  // when it stops; with the original replaceState, so it adds no history entry and reruns nothing.
  const history = window.history, replace = history.replaceState.bind(history);
  const FRAME_WRITE_MS = 1000;
  const frameKeys = () => {
    const url = new URL(window.location.href);
    let changed = false;
    for (const gd of document.querySelectorAll('.js-plotly-plot')) {
      const meta = gd.layout && gd.layout.meta && gd.layout.meta.dplab_frame;
      const slider = sliderOf(gd);
      if (!meta || gd.dplabStale || !slider || !slider.steps || !slider.steps.length) continue;
      const step = slider.steps[slider.active || 0];
      if (!step) continue;
      const wanted = step.label === meta.start ? null : step.label;
      if (url.searchParams.get(meta.key) !== wanted) {
        if (wanted === null) url.searchParams.delete(meta.key);
        else url.searchParams.set(meta.key, wanted);
        changed = true;
      }
    }
    if (changed) replace(history.state, '', url.toString());
  };
  let frameTimer = null;
  const frameKeysSoon = (wait = FRAME_WRITE_MS) => {
    clearTimeout(frameTimer);
    frameTimer = setTimeout(frameKeys, wait);
  };
  // Streamlit writes the address after a rerun (the controls' values): the frames still on screen go back into it.
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name].bind(history);
    history[name] = (...args) => {
      const before = window.location.pathname;
      const result = original(...args);
      // Another page: the charts still on screen are the old page's until it is drawn; their frames are not its.
      if (window.location.pathname !== before) {
        for (const gd of document.querySelectorAll('.js-plotly-plot')) gd.dplabStale = true;
      }
      frameKeysSoon(0);
      return result;
    };
  }

  // ------------------------------------------------------------------ icons beside words
  const icons = () => {
    const decorative = `h1 [role="img"], h2 [role="img"], h3 [role="img"], h4 [role="img"], [class*="${ANSWER}"] ` +
      '[role="img"]';
    for (const icon of document.querySelectorAll(decorative)) {
      if (icon.getAttribute('aria-hidden') !== 'true') icon.setAttribute('aria-hidden', 'true');
    }
  };

  // ------------------------------------------------------------------ predict, then reveal
  let revealing = null;  // the question whose Reveal button was just used (its key), until its answer shows
  const keyIn = (element, prefix) => {
    const name = [...element.classList].find((c) => c.startsWith(prefix));
    return name ? name.slice(prefix.length) : null;
  };
  document.addEventListener('click', (event) => {
    const container = event.target instanceof Element && event.target.closest(`[class*="${REVEAL}"]`);
    if (container) revealing = keyIn(container, REVEAL);
  }, true);

  const answers = () => {
    for (const answer of document.querySelectorAll(`[class*="${ANSWER}"]`)) {
      if (answer.closest(`[class*="${EXERCISE}"]`)) continue;  // an exercise's answer box, not a revealed answer
      setAttributes(answer, {role: 'status', 'aria-live': 'polite', tabindex: -1});
      if (revealing !== null && keyIn(answer, ANSWER) === revealing && answer.innerText.trim()) {
        revealing = null;
        answer.focus();
      }
    }
  };

  // ------------------------------------------------------------------ after Join, Send my answer, a file chosen, Check
  // Streamlit keys: the poll's box class_poll, its button poll_send (classroom.poll); the join form's field join_code and
  // its submit button (FormSubmitter-join_poll-Join); the uploader upload_file and the column's choice upload_column
  // (ui.upload); an exercise's container exercise_KEY and its buttons check_KEY, show_KEY and new_KEY, its answer
  // box answer_KEY_ATTEMPT (classroom.check_yourself). The answer is looked for once the run the action started is
  // over (stApp's data-test-script-state), among elements of that run (never a stale one).
  const POLL = '.st-key-class_poll', AFTER_MS = 60000, NO_RUN_MS = 3000;
  const appRoot = () => document.querySelector('[data-testid="stApp"]');
  const idle = () => (appRoot() || document.body).getAttribute('data-test-script-state') === 'notRunning';
  const current = (element) => !!element && element.isConnected && !element.closest('[data-stale="true"]');
  // The words of an element as a screen reader reads them: no icon names, no headings (said by the focus), none of
  // the parts given as ``leaveOut`` (a selector).
  const wordsOf = (element, leaveOut = '') => {
    const copy = element.cloneNode(true);
    const skipped = '[aria-hidden="true"], [role="img"], [data-testid="stIconMaterial"], h1, h2, h3, h4, h5, h6, ' +
      'annotation';  // a formula's TeX source beside its MathML (KaTeX): not read
    for (const part of copy.querySelectorAll(skipped + (leaveOut ? `, ${leaveOut}` : ''))) part.remove();
    return (copy.textContent || '').replace(/\s+/g, ' ').trim();
  };
  const BALLOT = '[data-testid="stRadio"], [data-testid="stButton"]';
  const ANSWERS = {
    join: () => {  // the poll's box at the top of the page, or the form's message (a code of the wrong form)
      const box = document.querySelector(POLL);
      if (current(box)) return {focus: box, say: wordsOf(box, BALLOT)};
      const field = document.querySelector('.st-key-join_code');
      const form = field && field.closest('[data-testid="stForm"]');
      const alert = form && form.querySelector('[data-testid="stAlert"]');
      return current(alert) ? {focus: alert, say: wordsOf(alert)} : null;
    },
    send: () => {  // the box's confirmation ("Your answer is in") or its refusal
      const box = document.querySelector(POLL);
      if (!current(box)) return null;
      const alert = [...box.querySelectorAll('[data-testid="stAlert"]')].find(current);
      return alert ? {focus: alert, say: wordsOf(alert)} : {focus: box, say: wordsOf(box, BALLOT)};
    },
    upload: () => {  // the column to choose (with the reader's notes on the cells left out), or the reader's message
      const uploader = document.querySelector('.st-key-upload_file');
      if (!current(uploader)) return null;
      const file = uploader.querySelector('[data-testid="stFileChipName"]');
      let sibling = uploader.nextElementSibling;
      for (let step = 0; sibling && step < 8; step += 1, sibling = sibling.nextElementSibling) {
        const alert = sibling.querySelector('[data-testid="stAlert"]');
        if (current(alert)) return {focus: alert, say: wordsOf(alert)};
        if (sibling.matches('.st-key-upload_column') && current(sibling)) {
          const choice = sibling.querySelector('input');
          if (!choice) return null;  // the select box is still being drawn
          const notes = [];
          for (let next = sibling.nextElementSibling; next && !next.matches('[class*="st-key-"]');
            next = next.nextElementSibling) notes.push(wordsOf(next));
          const read = file ? `${file.textContent.trim()} is read.` : 'The file is read.';
          const column = `${choice.getAttribute('aria-label') || 'Column'}: ${choice.value}.`;
          return {focus: choice, say: [read, column, ...notes].filter(Boolean).join(' ')};
        }
      }
      return null;
    },
    added: () => {  // the new release: the last of the plan's boxes, its first control
      const boxes = [...document.querySelectorAll('[class*="st-key-plan_release_"]')].filter(current);
      const box = boxes[boxes.length - 1];
      const control = box && box.querySelector('input');
      const heading = box && box.querySelector('[data-testid="stMarkdown"]');
      return control ? {focus: control, say: `Added. ${heading ? wordsOf(heading) : ''}`} : null;
    },
    removed: () => {  // the plan's last button, and how many releases are left
      const add = document.querySelector('.st-key-plan_add button');
      if (!current(add)) return null;
      const left = [...document.querySelectorAll('[class*="st-key-plan_release_"]')].filter(current).length;
      return {focus: add, say: `Removed: the plan has ${left} release${left === 1 ? '' : 's'}.`};
    },
    check: (key) => exerciseAlert(key),  // the verdict: right, not yet, or a number to type
    show: (key) => exerciseAlert(key),  // what to read: the worked answer below
    new: (key) => {  // the new variant's answer box (or its Check, for a task done with the page's controls)
      const exercise = exerciseBox(key);
      if (!exercise) return null;
      const box = [...exercise.querySelectorAll(`[class*="${ANSWER}"] input, [class*="st-key-check_"] button`)]
        .find(current);
      const question = wordsOf(exercise, `${BALLOT}, [data-testid="stTextInput"], [data-testid="stExpander"]`);
      return box ? {focus: box, say: question} : null;
    },
  };
  const exerciseBox = (key) => {
    const exercise = document.querySelector(`.${EXERCISE}${CSS.escape(key)}`);
    return current(exercise) ? exercise : null;
  };
  const exerciseAlert = (key) => {
    const exercise = exerciseBox(key);
    const alert = exercise && [...exercise.querySelectorAll('[data-testid="stAlert"]')].find(current);
    return alert ? {focus: alert, say: wordsOf(alert)} : null;
  };
  let after = null;  // {kind, key: the exercise's, at: when the student acted, ran: whether a run has started since}
  const awaitAnswer = (kind, key = null) => {
    after = {kind, key, at: Date.now(), ran: !idle()};
    settleSoon();
  };
  const settle = () => {
    if (!after) return;
    const waited = Date.now() - after.at;
    if (waited > AFTER_MS) {
      after = null;
      return;
    }
    if (!idle()) after.ran = true;
    if (after.ran ? idle() : waited > NO_RUN_MS) {
      const found = ANSWERS[after.kind](after.key);
      if (found) {
        after = null;
        const target = found.focus;
        const focusable = 'input, button, select, textarea, a[href], [tabindex]';
        if (!target.matches(focusable)) target.setAttribute('tabindex', '-1');
        target.focus();
        if (found.say) announce(found.say);
        return;
      }
    }
    settleSoon();
  };
  let settleTimer = null;
  const settleSoon = () => {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(settle, 100);
  };
  let watchedRoot = null;  // stApp, whose script state tells when a run starts and ends
  const watchRuns = () => {
    const root = appRoot();
    if (!root || root === watchedRoot) return;
    watchedRoot = root;
    new MutationObserver(() => {
      if (after && !idle()) after.ran = true;
      if (after) settleSoon();
    }).observe(root, {attributes: true, attributeFilter: ['data-test-script-state']});
  };
  const inside = (event, selector) => event.target instanceof Element && !!event.target.closest(selector);
  // A click on an exercise's Check, Show the answer or Try a new one (Enter and Space on a button click it too).
  const exerciseButton = (event) => {
    const button = event.target instanceof Element && event.target.closest(`[class*="${EXERCISE}"] button`);
    if (!button || button.disabled) return;
    const exercise = keyIn(button.closest(`[class*="${EXERCISE}"]`), EXERCISE);
    for (const kind of ['check', 'show', 'new']) {
      if (button.closest(`.st-key-${kind}_${CSS.escape(exercise)}`)) awaitAnswer(kind, exercise);
    }
  };
  document.addEventListener('click', (event) => {
    if (inside(event, '[class*="st-key-FormSubmitter-join_poll"]')) awaitAnswer('join');
    else if (inside(event, '.st-key-poll_send')) awaitAnswer('send');
    else if (inside(event, '.st-key-plan_add button:not([disabled])')) awaitAnswer('added');
    else if (inside(event, '[class*="st-key-plan_remove_"] button:not([disabled])')) awaitAnswer('removed');
    else exerciseButton(event);
  }, true);
  document.addEventListener('keydown', (event) => {  // Enter in the code's field submits the form
    if (event.key === 'Enter' && inside(event, '.st-key-join_code input')) awaitAnswer('join');
  }, true);
  document.addEventListener('change', (event) => {
    if (inside(event, '.st-key-upload_file input[type="file"]') && event.target.files && event.target.files.length) {
      awaitAnswer('upload');
    }
  }, true);
  document.addEventListener('drop', (event) => {
    if (inside(event, '.st-key-upload_file')) awaitAnswer('upload');
  }, true);

  // The poll's box is a region named "Class poll" (focus lands there after Join); the class's answers, revealed
  // while the box is on screen, are read once.
  let tableShown;  // whether the box showed the released answers at the last look (undefined: no box)
  const pollBox = () => {
    const box = document.querySelector(POLL);
    if (!box) {
      tableShown = undefined;
      return;
    }
    setAttributes(box, {role: 'region', 'aria-label': 'Class poll'});
    const table = [...box.querySelectorAll('.dplab-table table')].find(current);
    if (table && tableShown === false) {
      const heading = table.querySelectorAll('th')[1];
      const cells = (row) => [...row.cells].map((cell) => wordsOf(cell)).join(' ');
      const rows = [...table.querySelectorAll('tbody tr')].map(cells);
      announce(`The class's ${heading ? wordsOf(heading) : 'answers'}: ${rows.join('; ')}.`);
    }
    tableShown = !!table;
  };

  let pending = null;
  const apply = () => {
    pending = null;
    charts();
    describe();
    icons();
    answers();
    pollBox();
    watchRuns();
    if (after) settleSoon();
  };
  const soon = () => {
    if (pending === null) pending = setTimeout(apply, 30);
  };
  new MutationObserver(soon).observe(document.body, {childList: true, subtree: true});
  soon();
})();
