"""The layers of design.md stay true: no module imports a later layer (read with `ast`, nothing imported);
and the README's "How it works" names every module in the row of its folder.

    syntax < ir < registry < pipeline < workspace (the engine) < presentation < {cli, server} < entry

Below them the shared words (vocabulary.py), lark_cache.py, sharing.py, bounded.py, preempt.py and gc_policy.py, which import
nothing of ours. The CLI and the server do not import each other, and the server asks the workspace and
presentation layers only (its own business is LSP translation, sync, settings and scheduling).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"pypto_lens": ROOT / "analysis", "pypto_lens.server": ROOT / "server"}  # as pyproject.toml maps them
BASE = ("vocabulary", "lark_cache", "sharing", "bounded", "preempt", "gc_policy")
LAYERS = {"syntax": 1, "ir": 2, "registry": 3, "pipeline": 4, "workspace": 5, "presentation": 6,
          "cli": 7, "server": 7, "entry": 8, "__main__": 8}


def modules() -> dict[str, Path]:
    """Every module of the package: dotted name -> file."""
    out = {}
    for package, folder in FOLDERS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            if package == "pypto_lens" and parts and parts[0] == "server":
                continue  # (no such folder; the server is mapped from the top)
            out[".".join([package] + parts)] = path
    return out


def layer_of(module: str) -> tuple[str, int]:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in BASE:
        return "base", 0
    if parts[1] not in LAYERS:
        raise AssertionError(f"{module}: which layer is {parts[1]}? (add it to LAYERS and design.md)")
    return parts[1], LAYERS[parts[1]]


def imports(module: str, path: Path) -> set[str]:
    """The modules of ours that `module` imports anywhere in its text (function-local imports too)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # `from . import x` names a module
    ours = modules()
    return {name for name in found if name in ours and name != module}


GRAPH = {module: imports(module, path) for module, path in modules().items()}


def test_every_module_is_read_and_imports_are_resolved():
    assert len(GRAPH) > 60
    assert "pypto_lens.pipeline.state" in GRAPH["pypto_lens.pipeline.outline"]  # a relative import
    assert "pypto_lens.server.main" in GRAPH["pypto_lens.entry"]  # an absolute one
    assert "pypto_lens.presentation.hover" in GRAPH["pypto_lens.server.hover"]


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_module_imports_a_later_layer(module: str):
    name, rank = layer_of(module)
    later = sorted(m for m in GRAPH[module] if layer_of(m)[1] > rank)
    assert later == [], f"{module} ({name}) imports later layers"


def test_the_cli_and_the_server_do_not_import_each_other():
    for module, imported in GRAPH.items():
        mine = layer_of(module)[0]
        if mine in ("cli", "server"):
            other = "server" if mine == "cli" else "cli"
            assert not [m for m in imported if layer_of(m)[0] == other], module


def test_the_server_asks_the_workspace_and_presentation_layers_only():
    for module, imported in GRAPH.items():
        if layer_of(module)[0] == "server":
            beyond = sorted(m for m in imported if layer_of(m)[0] not in ("server", "workspace", "presentation", "base"))
            assert beyond == [], f"{module} reaches past the workspace: {beyond}"


def test_the_readme_names_every_module_in_the_row_of_its_folder():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## How it works"):readme.index("## Development")]
    rows: dict[str, str] = {}
    for folder, text in re.findall(r"^\| [^|]*\(`([^`]+)`\) \|(.*)\|$", section, re.M):
        rows[folder] = rows.get(folder, "") + text
    missing = []
    for path in modules().values():
        folder = path.parent.relative_to(ROOT).as_posix() + "/"
        if path.stem != "__init__" and f"`{path.stem}`" not in rows.get(folder, ""):
            missing.append(f"{folder}{path.name}")
    assert missing == []
