"""An analysis leaves no garbage in reference cycles (issue 13).

Garbage in a cycle is not freed when its last reference goes: it waits for the cycle collector,
which the server runs rarely (an analysis allocates many small objects, server/main.py). Over a
long session each keystroke's analysis then spread what it kept among arenas full of such garbage,
and the server's memory grew by a fifth in its first minute of typing. The usual cause was a
recursive closure (`def visit(...)` calling itself inside the function that defines it: the
function and its cell hold each other, with everything the closure captured), once a bound method
kept by the object it is bound to.
"""
from __future__ import annotations

import ast
import gc

import pytest
from collections import Counter
from pathlib import Path

from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace, path_to_uri

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"


def _self_reaching_closures(tree: ast.AST) -> list[str]:
    """Nested functions that reach themselves through the names of their enclosing function's other
    nested functions (or their own): each call of the enclosing function leaves a cycle."""
    found = []
    for outer in ast.walk(tree):
        if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        nested = {d.name: d for d in _nested_defs(outer)}
        calls = {name: {n.id for n in ast.walk(d) if isinstance(n, ast.Name) and n.id in nested}
                 for name, d in nested.items()}
        for name, d in nested.items():
            seen, todo = set(), list(calls[name])
            while todo:
                other = todo.pop()
                if other == name:
                    found.append(f"{outer.name}.<locals>.{name} (line {d.lineno})")
                    break
                if other not in seen:
                    seen.add(other)
                    todo.extend(calls[other])
    return found


def _nested_defs(node: ast.AST):
    """The functions defined directly in a function's own scope (not in deeper functions or classes)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield child
        elif not isinstance(child, (ast.Lambda, ast.ClassDef)):
            yield from _nested_defs(child)


def test_the_scanner_finds_a_recursive_closure_and_mutual_ones():
    tree = ast.parse("def f(xs):\n    out = []\n    def walk(x):\n        out.append(x)\n        walk(x)\n"
                     "    walk(xs)\n\ndef g():\n    def a():\n        b()\n    def b():\n        a()\n"
                     "\ndef h():\n    def leaf():\n        return 1\n    return leaf()\n")
    assert _self_reaching_closures(tree) == ["f.<locals>.walk (line 3)", "g.<locals>.a (line 9)",
                                             "g.<locals>.b (line 11)"]


def test_no_function_of_the_project_defines_a_recursive_closure():
    found = [f"{path.relative_to(ROOT)}: {where}"
             for folder in ("analysis", "server") for path in sorted((ROOT / folder).rglob("*.py"))
             for where in _self_reaching_closures(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []


def _edited(text: str) -> str:
    """The text with a character typed at the end of its last indented line (a body line)."""
    lines = text.split("\n")
    body = [n for n, line in enumerate(lines) if line.startswith("    ") and line.strip()]
    lines[body[-1]] += " + 0" if "=" in lines[body[-1]] else "  # typed"
    return "\n".join(lines)


@pytest.mark.parametrize("hints_first", [False, True])
def test_analyses_of_edited_programs_leave_no_garbage_in_cycles(hints_first):
    """Also when each analysis is made hints first and then its rest (the server's way, document.Rest)."""
    paths = sorted(PROGRAMS.glob("*.py"))
    texts = OpenTexts()
    workspace = Workspace([PROGRAMS], open_documents=texts)
    uris = {path_to_uri(p): p.read_text(encoding="utf-8") for p in paths}
    for uri, text in uris.items():  # once first: what start-up builds once (tables, registry) is not the point
        texts.open(uri, text, 1)
        workspace.analysis(uri)
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept in gc.garbage, to be named
    try:
        for uri, text in uris.items():
            for version, edited in ((2, _edited(text)), (3, text)):
                texts.open(uri, edited, version)
                if hints_first:
                    workspace.analysis(uri, hints_only=True)
                workspace.analysis(uri)
        gc.collect()
        kinds = Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()
    assert sum(kinds.values()) == 0, kinds.most_common(10)
