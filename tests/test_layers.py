"""dpcore is layered by role: every import points down the stack, and no module imports itself back (no cycles).

    core  <-  mechanisms · accounting · audit  <-  distributions · estimators · datasets · columns
          <-  theory · experiments  <-  lessons  <-  viz  <-  the app (ui.py, registry.py, app_pages/)

The app side has layers too, each importing only itself and those below it:

    classroom (the class's state, and the parts that serve the class: poll, share, embed, handout)
          <-  ui (the pages' skeleton and the serving layer)  <-  the pages (app_pages/, app.py)

``ui`` draws the classroom's parts (the poll under a question, "Share with the class", the Embed code, the handout);
``classroom`` imports neither ``ui`` nor the pages, and inside it no module of the state imports a part. The app
side's modules import one another without cycles.

Imports are read from the source (every ``import`` statement, including those inside functions), so a lazy import
cannot hide a wrong direction.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dpcore"
LAYER = {"core": 0, "mechanisms": 1, "accounting": 1, "audit": 1, "one_run_audit": 1, "distributions": 2,
         "estimators": 2, "datasets": 2, "columns": 2, "theory": 3, "experiments": 3, "privacy_loss": 1, "planning": 3,
         "lessons": 4, "viz": 5, "exercises": 5}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """The dpcore modules ``path`` imports (``from . import x`` counts as importing ``package.x``)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("dpcore")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("dpcore"):
                target = node.module
            else:
                continue
            found.add(target)
            found |= {f"{target}.{alias.name}" for alias in node.names
                      if (PACKAGE.parent / f"{target}.{alias.name}".replace(".", "/")).exists()
                      or (PACKAGE.parent / (f"{target}.{alias.name}".replace(".", "/") + ".py")).exists()}
    return found


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYER.get(parts[1]) if len(parts) > 1 else None


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
GRAPH = {name: {target for target in imported_modules(path) if target in MODULES and target != name}
         for name, path in MODULES.items()}


def test_every_subpackage_has_a_layer():
    assert {name.split(".")[1] for name in MODULES if name.count(".") >= 1} <= set(LAYER)


@pytest.mark.parametrize("module", sorted(name for name in MODULES if layer(name) is not None))
def test_imports_point_down_the_layers(module):
    upward = sorted(target for target in GRAPH[module] if layer(target) is not None and layer(target) > layer(module))
    assert upward == [], f"{module} (layer {layer(module)}) imports a higher layer"


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module -> the modules it imports), by depth-first search for a back edge,
    ignoring a package's import of its own submodules (re-exports)."""
    edges = {name: {t for t in targets if not t.startswith(name + ".")} for name, targets in graph.items()}
    state: dict[str, str] = {}
    cycles: list[list[str]] = []

    def visit(node, path):
        state[node] = "open"
        for target in sorted(edges[node]):
            if state.get(target) == "open":
                cycles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[node] = "done"

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    return cycles


def test_no_import_cycles():
    assert cycles_of(GRAPH) == []


def test_the_library_never_imports_the_app_or_streamlit():
    for path in MODULES.values():
        text = path.read_text()
        for forbidden in ("import streamlit", "from streamlit", "import ui", "from ui ", "import registry"):
            assert forbidden not in text, (path, forbidden)


def test_only_viz_imports_plotly():
    importers = sorted(name for name, path in MODULES.items() if "plotly" in path.read_text().split("\n\n\n")[0]
                       and ("import plotly" in path.read_text() or "from plotly" in path.read_text()))
    assert all(name.startswith("dpcore.viz") for name in importers), importers


def test_the_classroom_never_imports_the_pages_skeleton():
    for path in sorted((ROOT / "classroom").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                assert not [n for n in names if n.split(".")[0] in ("ui", "app_pages", "app")], (path, names)


#: The classroom's parts: drawn into a page by ``ui``, standing on the classroom's state (the package's other modules).
CLASSROOM_PARTS = ("poll", "share", "embed", "handout", "table", "check_yourself")


def classroom_imports(path: Path) -> set[str]:
    """The ``classroom`` modules ``path`` (a module of the package) imports, by name inside the package."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.level == 1 or node.module == "classroom"):
            found |= {node.module} if node.module and node.level else {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("classroom."):
            found.add(node.module.split(".")[1])
    return found


def test_the_classroom_s_parts_live_in_their_room_not_in_the_pages_skeleton():
    assert [name for name in CLASSROOM_PARTS if not (ROOT / "classroom" / f"{name}.py").exists()] == []
    assert [name for name in CLASSROOM_PARTS if (ROOT / "ui" / f"{name}.py").exists()] == []


def test_the_classroom_s_state_never_imports_its_parts():
    state = sorted(path for path in (ROOT / "classroom").glob("*.py") if path.stem not in CLASSROOM_PARTS)
    offenders = {path.stem: sorted(classroom_imports(path) & set(CLASSROOM_PARTS)) for path in state}
    assert {name: parts for name, parts in offenders.items() if parts} == {}


def test_the_pages_skeleton_never_imports_the_pages():
    for path in sorted((ROOT / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [] if node.level else \
                    [node.module or ""]  # a relative import stays inside ui
                assert not [n for n in names if n.split(".")[0] in ("app_pages", "app")], (path, names)


def app_module_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports (``from package import name`` counts as importing
    ``package.name`` when that is a module)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found |= {target} | {f"{target}.{alias.name}" for alias in node.names}
    return {target for target in found if target in modules and target != name}


def test_no_import_cycles_on_the_app_side():
    paths = sorted([*(ROOT / "classroom").rglob("*.py"), *(ROOT / "ui").rglob("*.py"),
                    *(ROOT / "app_pages").rglob("*.py"), ROOT / "registry.py", ROOT / "app.py"])
    modules = {module_name(path): path for path in paths}
    assert cycles_of({name: app_module_imports(path, set(modules)) for name, path in modules.items()}) == []


FIRST_PARTY = ("dpcore", "ui", "classroom", "registry", "app_pages", "deploy")
APP_SIDE = sorted([*PACKAGE.rglob("*.py"), *(ROOT / "ui").rglob("*.py"), *(ROOT / "classroom").rglob("*.py"),
                   *(ROOT / "app_pages").rglob("*.py"),
                   *(ROOT / "deploy").rglob("*.py"), ROOT / "registry.py", ROOT / "app.py"])


def private_imports(path: Path) -> list[str]:
    """``module.name`` of every underscored name ``path`` imports from another first-party module (relative
    imports count; ``__future__``-style dunders do not)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(FIRST_PARTY)):
            found += [f"{'.' * node.level}{node.module or ''}.{alias.name}" for alias in node.names
                      if alias.name.startswith("_") and not alias.name.startswith("__")]
    return found


def test_an_underscore_means_private():
    """No module imports another first-party module's underscored names: what is shared is public (and then
    documented and validated), what is private stays in its module."""
    offenders = {str(path.relative_to(ROOT)): names for path in APP_SIDE if (names := private_imports(path))}
    assert offenders == {}
