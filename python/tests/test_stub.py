"""dirac.pyi describes the module: the same names, with docstrings; units where they apply."""

import ast
import pathlib

import dirac

STUB = pathlib.Path(dirac.__file__).with_name("dirac.pyi")


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_stub_lists_exactly_the_modules_names():
    tree = ast.parse(STUB.read_text())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    module_names = public(dir(dirac)) - {"FloatArray", "SetValues", "ComplexArray"}
    assert module_names == public(classes) | functions
    for name, node in classes.items():
        stubbed = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        stubbed |= {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        if issubclass(getattr(dirac, name), Exception):
            # Instance attributes, set when raised (test_errors.py reads them).
            members = {"ScenarioError": {"file", "line", "symbol"},
                       "SolveError": {"report"}}.get(name, set())
        else:
            members = public(vars(getattr(dirac, name)))
        assert public(stubbed) == members, name


def test_stub_documents_times_in_seconds():
    text = STUB.read_text()
    tree = ast.parse(text)
    model = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model")
    run = next(n for n in model.body if isinstance(n, ast.FunctionDef) and n.name == "run")
    assert "t_end [s]" in ast.get_docstring(run)
    assert ast.get_docstring(tree).startswith("Type hints of the Python module")
