// Formulas fit their column (loaded once per page by ui.setup_page): a display wider than the column it sits in is
// scaled down to the column's width, on a phone as on a projector; it grows back when there is room again.
(() => {
  if (window.dplabFitFormulas) return;
  window.dplabFitFormulas = true;
  const MIN_SCALE = 0.55;  // below this a formula is no longer readable: better to let it scroll
  const fit = () => {
    for (const display of document.querySelectorAll('.katex-display')) {
      const formula = display.querySelector(':scope > .katex');
      if (!formula) continue;
      formula.style.fontSize = '';
      const room = display.clientWidth, needed = display.scrollWidth;
      if (room > 0 && needed > room) {
        const scale = Math.max(MIN_SCALE, (room / needed) * 0.98);
        formula.style.fontSize = `${parseFloat(getComputedStyle(formula).fontSize) * scale}px`;
      }
      // A formula that still scrolls can be scrolled from the keyboard too (WCAG 2.1.1; axe's
      // scrollable-region-focusable): it takes a Tab stop, named as what it is, only while it scrolls.
      if (display.scrollWidth > display.clientWidth + 1) {
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
