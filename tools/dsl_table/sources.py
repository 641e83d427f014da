"""The PyPTO source tree as the interpreter reads it: modules, their names and globals (`ast` only)."""
from __future__ import annotations

import ast
import builtins
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from .values import Ext, Func, Klass, ModRef, Opq

if TYPE_CHECKING:
    from .interp import Interp


class Module:
    def __init__(self, name: str, path: Path, is_pkg: bool) -> None:
        self.name = name
        self.path = path
        self.is_pkg = is_pkg
        self.tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        self.bindings: dict[str, tuple] = {}
        self._collect(self.tree.body)

    def _collect(self, body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.bindings[node.name] = ("def", node)
            elif isinstance(node, ast.ClassDef):
                self.bindings[node.name] = ("class", node)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        self.bindings[a.asname] = ("module", a.name)
                    else:
                        top = a.name.split(".")[0]
                        self.bindings[top] = ("module", top)
            elif isinstance(node, ast.ImportFrom):
                base = self.resolve_relative(node.module, node.level)
                for a in node.names:
                    if a.name != "*":
                        self.bindings[a.asname or a.name] = ("from", base, a.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if node.value is None:
                    continue
                for t in targets:
                    if isinstance(t, ast.Name):
                        self.bindings[t.id] = ("expr", node.value)
            elif isinstance(node, ast.If):
                self._collect(node.body)  # TYPE_CHECKING blocks and the like
            elif isinstance(node, ast.Try):
                self._collect(node.body)

    def resolve_relative(self, module: Optional[str], level: int) -> str:
        if level == 0:
            return module or ""
        parts = self.name.split(".")
        if not self.is_pkg:
            parts = parts[:-1]
        if level > 1:
            parts = parts[: len(parts) - (level - 1)]
        base = ".".join(parts)
        return f"{base}.{module}" if module else base


class SourceTree:
    def __init__(self, checkout: Path) -> None:
        self.checkout = checkout
        self.root = checkout / "python"
        self._modules: dict[str, Optional[Module]] = {}
        self._globals: dict[tuple[str, str], Any] = {}

    def module(self, name: str) -> Optional[Module]:
        if name not in self._modules:
            rel = Path(*name.split("."))
            mod = None
            if (self.root / rel / "__init__.py").is_file():
                mod = Module(name, self.root / rel / "__init__.py", True)
            elif (self.root / rel.with_suffix(".py")).is_file():
                mod = Module(name, self.root / rel.with_suffix(".py"), False)
            self._modules[name] = mod
        return self._modules[name]

    def relpath(self, mod: Module) -> str:
        return mod.path.relative_to(self.checkout).as_posix()

    def global_value(self, modname: str, name: str, interp: "Interp") -> Any:
        """Value of a module-level name (functions, modules, classes, constants)."""
        key = (modname, name)
        if key in self._globals:
            return self._globals[key]
        self._globals[key] = Opq()  # cycle guard
        value = self._compute_global(modname, name, interp)
        self._globals[key] = value
        return value

    def _compute_global(self, modname: str, name: str, interp: "Interp") -> Any:
        mod = self.module(modname)
        if mod is None:
            return Ext(f"{modname}.{name}")
        b = mod.bindings.get(name)
        if b is None:
            if self.module(f"{modname}.{name}") is not None:
                return ModRef(f"{modname}.{name}")
            if name in BUILTIN_NAMES:
                return Ext(f"builtins.{name}")
            return Ext(f"{modname}.{name}")
        if b[0] == "def":
            return Func(modname, b[1])
        if b[0] == "class":
            return Klass(f"{modname}.{name}")
        if b[0] == "module":
            return ModRef(b[1]) if self.module(b[1]) is not None else Ext(b[1])
        if b[0] == "from":
            base, attr = b[1], b[2]
            if self.module(base) is None:
                return Ext(f"{base}.{attr}")
            base_mod = self.module(base)
            assert base_mod is not None
            if self.module(f"{base}.{attr}") is not None and (
                    attr not in base_mod.bindings or base_mod.bindings[attr] == ("from", base, attr)):
                return ModRef(f"{base}.{attr}")  # `from . import sub` names the submodule
            return self.global_value(base, attr, interp)
        if b[0] == "expr":
            node = b[1]
            if isinstance(node, (ast.Name, ast.Attribute)):
                return interp.eval_static(node, modname)
            if isinstance(node, (ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.UnaryOp, ast.BinOp)):
                return interp.eval_static(node, modname)
            return Opq()
        return Opq()


BUILTIN_NAMES = frozenset(vars(builtins))
