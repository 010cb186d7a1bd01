// Formulas fit their column (loaded once per page by ui.setup_page): a display wider than the column it sits in
// breaks onto lines between its top-level pieces (KaTeX's, after a relation or an operator: braces in the Markdown
// keep a piece whole) rather than shrink below BREAK_BELOW of its size; what is still too wide (one piece, or a
// formula without pieces) is scaled down to the column's width, on a phone as on a projector. It is whole and full
// size again when there is room.
// NB: Streamlit passes this script through DOMPurify, which drops a script whose text holds "<" followed by a letter,
// "/" or "!" (a tag): write such a "<" as \x3c (tests/e2e/test_every_screen.py checks that the script ran).
(() => {
  if (window.dplabFitFormulas) return;
  window.dplabFitFormulas = true;
  const MIN_SCALE = 0.55;  // below this a formula is no longer readable: better to let it scroll
  const BREAK_BELOW = 0.85;  // a formula that would shrink more than this breaks onto lines (assets/style.css)
  const fit = () => {
    for (const display of document.querySelectorAll('.katex-display')) {
      const formula = display.querySelector(':scope > .katex');
      if (!formula) continue;
      formula.style.fontSize = '';
      display.classList.remove('dplab-broken');
      const room = display.clientWidth, natural = parseFloat(getComputedStyle(formula).fontSize);
      const pieces = formula.querySelectorAll(':scope > .katex-html > .base').length;
      if (room > 0 && pieces > 1 && display.scrollWidth * BREAK_BELOW > room) display.classList.add('dplab-broken');
      // Scaled again while a pixel or two still sticks out (rounding), never below MIN_SCALE of its size.
      for (let tries = 0; tries < 3 && room > 0 && display.scrollWidth > room; tries++) {
        const size = parseFloat(getComputedStyle(formula).fontSize);
        formula.style.fontSize = `${Math.max(MIN_SCALE * natural, size * (room / display.scrollWidth) * 0.98)}px`;
      }
      // A formula that still scrolls can be scrolled from the keyboard too (WCAG 2.1.1; axe's
      // scrollable-region-focusable): it takes a Tab stop, named as what it is, only while it scrolls.
      if (display.scrollWidth > display.clientWidth) {
        display.setAttribute('tabindex', '0');
        display.setAttribute('role', 'region');
        display.setAttribute('aria-label', 'formula, scrolls sideways');
      } else if (display.getAttribute('tabindex') === '0') {
        for (const name of ['tabindex', 'role', 'aria-label']) display.removeAttribute(name);
      }
    }
  };
  let pending = null;
  const soon = () => { clearTimeout(pending); pending = setTimeout(fit, 50); };
  new MutationObserver(soon).observe(document.body, {childList: true, subtree: true});
  window.addEventListener('resize', soon);
  soon();
})();

// Charts fit their width too (the same page load): Plotly never wraps text, and the figures are built on the server,
// which does not know the screen. So, in the browser, after every draw of a chart (Plotly's plotly_afterplot):
// * its title is wrapped by the figure's width (the server's 30 characters, dpcore.viz.style.TITLE_WIDTH, are only
//   the fallback of an exported figure): one line on a laptop, two or three on a phone;
// * every axis title by its axis's length, and every legend entry longer than the figure is wide, so that none is
//   cut at the screen's edge on a phone;
// * a figure with several panels side by side stacks them on a narrow screen: the figure declares its stacked layout
//   in layout.meta.dplab_narrow = {below: width in px, layout: {...}, wide: {...}} (dpcore.viz.style.stacked_panels),
//   applied below that width and undone above it.
// Each pass is idempotent (it changes a chart only when what it wants differs from what is drawn), so the redraw it
// causes ends the loop; an animation's frames get the same titles and names, so Play keeps them.
(() => {
  if (window.dplabFitCharts) return;
  window.dplabFitCharts = true;
  const canvas = document.createElement('canvas').getContext('2d');
  const widthOf = (text, font) => {
    canvas.font = `${font.size}px ${font.family}`;
    return canvas.measureText(text.replace(/<[^>]+>/g, '')).width;
  };
  // Words of a title, an equation "a = b" kept as one word (as dpcore.viz.style._words).
  const words = text => text.split(' ').reduce((out, word) => {
    if (out.length && (word === '=' || out[out.length - 1].endsWith(' ='))) out[out.length - 1] += ' ' + word;
    else out.push(word);
    return out;
  }, []);
  const wrap = (text, room, font) => {
    const lines = [];
    for (const word of words(text.replace(/\x3cbr\s*\/?>/gi, ' ').replace(/\s+/g, ' ').trim())) {
      const last = lines.length - 1;
      if (last >= 0 && widthOf(lines[last] + ' ' + word, font) <= room) lines[last] += ' ' + word;
      else lines.push(word);
    }
    return lines.join('\x3cbr>');  // Plotly's line break
  };
  const LEGEND_SYMBOL_PX = 48;  // a legend entry's line sample and its gaps

  const narrowUpdate = (gd, full) => {
    const narrow = full.meta && full.meta.dplab_narrow;
    if (!narrow) return {};
    const wanted = full.width < narrow.below ? narrow.layout : narrow.wide;
    const layout = gd.layout;
    const get = path => path.split(/[.[\]]+/).filter(Boolean)
      .reduce((node, key) => (node == null ? undefined : node[key]), layout);
    const differs = Object.entries(wanted).some(([path, value]) => JSON.stringify(get(path)) !== JSON.stringify(value));
    return differs ? {...wanted} : {};
  };

  // An animation's Play/Pause row and slider lie under what the x axis drew: the row its gap below the lowest tick
  // label or x-title line (the title as wrapped here, or by the server: dpcore.viz.animation._controls counts its
  // lines), the slider its gap below the row. They move when they would touch what is above them, or when they are
  // more than two lines further down than needed (the title unwrapped on a wider screen); the server's places
  // otherwise stay, so most charts are not drawn twice.
  const CONTROLS_GAP = 0.5;  // × the figure's font size: between the x axis and the buttons, the buttons and the slider
  const placeControls = (gd, full) => {
    const menu = full.updatemenus && full.updatemenus[0], slider = full.sliders && full.sliders[0];
    if (!menu || !slider || menu.y !== 0 || slider.y !== 0 || menu.yanchor !== 'top' || slider.yanchor !== 'top') {
      return {};
    }
    const plotBottom = gd.getBoundingClientRect().top + full._size.t + full._size.h;
    const axisBottom = [...gd.querySelectorAll('[class^="x"][class$="tick"] > text, text[class^="x"][class$="title"]')]
      .map(el => el.getBoundingClientRect()).filter(r => r.height > 0)
      .reduce((low, r) => Math.max(low, r.bottom), plotBottom);
    const size = full.font.size, gap = CONTROLS_GAP * size;
    const button = gd.querySelector('.updatemenu-button');
    const row = button ? button.getBoundingClientRect().height : 2 * size;
    const menuTop = Math.ceil(axisBottom - plotBottom + gap), sliderTop = Math.ceil(menuTop + row + gap);
    const wrong = (now, wanted) => now < wanted - 1 || now > wanted + 2 * size;
    const update = {};
    if (wrong(menu.pad.t, menuTop)) update['updatemenus[0].pad.t'] = menuTop;
    if (wrong(slider.pad.t, sliderTop) || update['updatemenus[0].pad.t'] !== undefined) {
      update['sliders[0].pad.t'] = Math.max(sliderTop, menuTop + (slider.pad.t - menu.pad.t));
    }
    return update;
  };

  const MAX_FITS = 6;  // per chart and width: a fit that kept changing its mind stops there
  const fitChart = gd => {
    const full = gd._fullLayout;
    if (!full || !window.Plotly || !full.width) return;
    if (gd.dplabWidth !== full.width) { gd.dplabWidth = full.width; gd.dplabFits = 0; }
    if (++gd.dplabFits > MAX_FITS) return;
    // The titles and names are not fitted in presentation mode (its 22 px template): there a relayout left the titles
    // inside Plotly's toolbar strip or on the plot's top tick label (to be understood); the server's wrapping fits a
    // 1280 px projector. The animation's controls are placed on every screen.
    if (full.font && full.font.size >= 22) {
      const controls = placeControls(gd, full);
      if (Object.keys(controls).length) window.Plotly.relayout(gd, controls);
      return;
    }
    const update = narrowUpdate(gd, full);
    // Titles as the figure sets them (Plotly's full layout holds placeholders such as "Click to enter X axis title").
    const textOf = node => (typeof node === 'string' ? node : node && node.text) || '';
    const title = textOf(gd.layout.title);
    if (title) {
      const room = full.width * (1 - (full.title.xref === 'container' ? full.title.x : 0)) - 24;
      const wanted = wrap(title, room, full.title.font);
      if (wanted !== title) update['title.text'] = wanted;
    }
    for (const name of Object.keys(full).filter(key => /^[xy]axis\d*$/.test(key))) {
      const axis = full[name], text = textOf(gd.layout[name] && gd.layout[name].title);
      if (!text || !axis._length || axis.visible === false) continue;
      // An x title may use the figure's width; a y title its axis's length, or, on a short axis, the length of the
      // server's lines (dpcore.viz.animation.AXIS_TITLE_WIDTH): more lines would only take the plot's width.
      const served = Math.max(...text.split(/\x3cbr\s*\/?>/i).map(line => widthOf(line, axis.title.font)));
      const room = name[0] === 'x' ? Math.min(full.width - 16, axis._length + 40)
        : Math.max(axis._length, Math.min(served + 1, full.height - 16));
      const wanted = wrap(text, room, axis.title.font);
      if (wanted !== text) update[`${name}.title.text`] = wanted;
    }
    const names = {};
    if (full.showlegend !== false && full.legend) {
      const legend = full.legend, size = full._size;
      const left = legend.xref === 'container' ? legend.x * full.width : size.l + legend.x * size.w;
      const room = full.width - left - LEGEND_SYMBOL_PX - 8;
      gd.data.forEach((trace, index) => {
        if (trace.showlegend === false || !trace.name) return;
        const wanted = wrap(trace.name, room, full.legend.font);
        if (wanted !== trace.name) names[index] = wanted;
      });
    }
    const frames = gd._transitionData && gd._transitionData._frames;
    if (frames && (update['title.text'] || Object.keys(names).length)) {
      for (const frame of frames) {
        const frameTitle = frame.layout && frame.layout.title;
        if (frameTitle && frameTitle.text) frameTitle.text = wrap(frameTitle.text, full.width - 24, full.title.font);
        (frame.data || []).forEach((trace, i) => {
          const index = frame.traces ? frame.traces[i] : i;
          if (names[index] !== undefined && trace.name) trace.name = names[index];
        });
      }
    }
    Object.assign(update, placeControls(gd, full));
    const indices = Object.keys(names).map(Number);
    if (indices.length) {
      // Names and layout in one redraw. The legend's room under the slider is reserved again only by a relayout
      // (Plotly's restyle of a name redraws the legend taller, into the slider): so there is always one, the margin
      // as it is if nothing else changes.
      if (!Object.keys(update).length) update['margin.b'] = full.margin.b;
      window.Plotly.update(gd, {name: indices.map(i => names[i])}, update, indices);
    } else if (Object.keys(update).length) {
      window.Plotly.relayout(gd, update);
    }
  };

  const watch = () => {
    for (const gd of document.querySelectorAll('.js-plotly-plot')) {
      if (!gd._fullLayout || typeof gd.on !== 'function') continue;
      if (!gd.dplabFitted) {
        gd.dplabFitted = true;
        gd.on('plotly_afterplot', () => setTimeout(() => fitChart(gd), 0));
      }
      fitChart(gd);
    }
  };
  let pending = null;
  const soon = () => { clearTimeout(pending); pending = setTimeout(watch, 80); };
  new MutationObserver(soon).observe(document.body, {childList: true, subtree: true});
  window.addEventListener('resize', soon);
  soon();
})();
