"""The Python package's imports form layers (docs/dev/architecture.md): every import of a
package module sits at module level, and the import graph has no cycle. Read from the source,
so it needs no kernel."""

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "python" / "ranvier"
# Heavy or optional dependencies a function may import when it is first used.
LAZY = {"matplotlib", "pandas", "tqdm", "h5py", "pynestml", "importlib", "find_libpython"}


def _name(path):
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


def _imports(path, modules):
    """(imported package modules, lazy imports) of one file: (module, in a function) pairs."""
    name = _name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text())
    in_functions = {
        id(node)
        for f in ast.walk(tree)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(f)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            module = node.module if not node.level else base + ("." + node.module if node.module else "")
            submodules = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in modules]
            targets = submodules or [module]
        else:
            continue
        found += [(t, id(node) in in_functions) for t in targets]
    return found


def _graph():
    files = {_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files) | {"ranvier._kernel"}
    graph, lazy = {}, []
    for name, path in files.items():
        edges = set()
        for target, in_function in _imports(path, modules):
            if target.split(".")[0] == "ranvier":
                if in_function:
                    lazy.append((name, target))
                edges.add(target)
                parent = target.rsplit(".", 1)[0]
                if parent != "ranvier" and not name.startswith(parent):
                    edges.add(parent)  # importing a subpackage's module runs the subpackage first
            elif in_function and target.split(".")[0] not in LAZY:
                lazy.append((name, target))
        graph[name] = {t for t in edges if t in files and t != name}
    return graph, lazy


def test_no_function_level_imports():
    """Only heavy optional dependencies wait for a function's first call."""
    _, lazy = _graph()
    assert lazy == []


def test_import_graph_is_acyclic():
    graph, _ = _graph()
    done, path = set(), []

    def visit(module):
        if module in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(module) :] + [module]))
        if module in done:
            return
        path.append(module)
        for target in sorted(graph[module]):
            visit(target)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
