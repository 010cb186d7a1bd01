"""Each page's settings, importable without drawing the page.

``app_pages/settings/<page>.py`` holds the page's controls: ``SPECS`` (:class:`ui.ParamSpec`, the sidebar's, in
order) and, if it has any, ``IN_PAGE`` (those drawn beside their figure, each also under its own name). A page that
shows Monte Carlo sweeps adds ``sweeps(values, run)``: it runs through ``run`` every sweep the page shows at the
control values ``values`` (a dict keyed by the controls' URL keys).

The page script draws the controls. ``./lab.sh precompute`` and ``./lab.sh sweep`` (:mod:`ui.precompute`,
:mod:`ui.reproduce`) call ``sweeps`` with the store's runner, without running the page.
``tests/app/test_precomputed_grid.py`` keeps ``sweeps`` honest: at every stored setting the page, run whole, finds
every sweep it draws stored.
"""
