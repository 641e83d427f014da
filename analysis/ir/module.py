"""Find the pl programs of a module: `@pl.program` classes, `@pl.jit` families, closures.

Works on the parsed units of one document (unit-relative spans). A program is
a closed set of functions that call each other: the methods of one class, or
the module's (or one enclosing function's) decorated functions.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional

from ..syntax import nodes as s
from ..syntax.nodes import Span
from .context import ModuleContext, StaticClass, fold_value
from .declarations import decorator_kind, is_program_class
from .nodes import Kind


@dataclass
class FunctionSource:
    """A pl function as written: where it is and how it is decorated."""

    name: str
    unit: int  # index of the unit holding it
    node: s.FunctionDef
    kind: Kind
    jit: bool
    attrs: dict
    in_class: bool
    constants: dict = field(default_factory=dict)  # closure constants visible to it


@dataclass
class ProgramDecl:
    name: str
    kind: str  # 'class' | 'module' | 'closure'
    unit: int
    span: Span
    functions: list[FunctionSource] = field(default_factory=list)
    parent: Optional[str] = None  # a closure program falls back to the module's functions


def build_context(units: list[list[s.Stmt]],
                  imported_constants: Optional[Callable[[ModuleContext], dict]] = None,
                  classes: tuple = ()) -> ModuleContext:
    """Imports and constants of the module's top level, in source order. Constants imported from
    other modules (`imported_constants`) come first, so that `PAGES = 32 // BLOCK` folds.
    `classes`: the module's configuration dataclasses, as (class statement, its members' statements,
    its text), so that `QWEN3 = Config(head_dim=128)` and then `HEAD_DIM = QWEN3.head_dim` fold."""
    ctx = ModuleContext()
    for stmts in units:
        for st in stmts:
            if isinstance(st, (s.Import, s.ImportFrom)):
                ctx.add_import(st)
    if imported_constants is not None:
        ctx.constants.update(imported_constants(ctx))
    for cls, members, source in classes:
        ctx.constants[cls.name] = static_class(cls, members, source, ctx.constants)
    for stmts in units:
        for st in stmts:
            _record_constant(st, ctx.constants)
    return ctx


def is_dataclass(cls: s.ClassDef) -> bool:
    """`@dataclass` / `@dataclass(...)` / `@dataclasses.dataclass` on a class."""
    for d in cls.decorators:
        target = d.func if isinstance(d, s.Call) else d
        name = s.dotted_name(target)
        if name is not None and name.rsplit(".", 1)[-1] == "dataclass":
            return True
    return False


def static_class(cls: s.ClassDef, members: list, source: str, constants: dict) -> StaticClass:
    fields, properties = [], {}
    for st in members:
        if isinstance(st, s.AnnAssign) and isinstance(st.target, s.Name):
            fields.append((st.target.id, st.value))
        elif isinstance(st, s.FunctionDef) and any(s.dotted_name(d) == "property" for d in st.decorators):
            body = [b for b in st.body if not (isinstance(b, s.ExprStmt) and isinstance(b.value, s.Str))]
            if len(body) == 1 and isinstance(body[0], s.Return) and body[0].value is not None:
                properties[st.name] = body[0].value
    return StaticClass(cls.name, source, tuple(fields), properties, constants)


def _record_constant(st: s.Stmt, constants: dict[str, Any]) -> None:
    if isinstance(st, s.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], s.Name):
        value = fold_value(st.value, constants)
        if value is not None:
            constants[st.targets[0].id] = value
        else:
            constants.pop(st.targets[0].id, None)
    elif isinstance(st, s.AnnAssign) and isinstance(st.target, s.Name) and st.value is not None:
        value = fold_value(st.value, constants)
        if value is not None:
            constants[st.target.id] = value


def unit_contribution(ctx: ModuleContext, stmts: list[s.Stmt], kind: str) -> tuple:
    """What one unit adds to the module's programs, independent of where the unit is (cacheable)."""
    if kind == "class":
        return tuple((st.name, st.name_span) for st in stmts
                     if isinstance(st, s.ClassDef) and is_program_class(ctx, st))
    functions = []
    closures: list[ProgramDecl] = []
    for st in stmts:
        if isinstance(st, s.FunctionDef):
            decorated = decorator_kind(ctx, st.decorators)
            if decorated:
                functions.append((st, decorated))
                continue
        if kind == "statement":
            _closures(ctx, st, -1, closures, dict(ctx.constants), st.name if isinstance(st, s.FunctionDef) else "")
    return tuple(functions), tuple(closures)


def find_programs(ctx: ModuleContext, units: list[list[s.Stmt]], kinds: list[str],
                  parents: list[Optional[int]], contributions: Optional[list] = None) -> list[ProgramDecl]:
    """The programs of a module; `kinds`/`parents` describe each unit (see chunker.Unit).

    `contributions` may give each unit's `unit_contribution` (from a cache)."""
    programs: list[ProgramDecl] = []
    module = ProgramDecl("<module>", "module", -1, Span(0, 0, 0, 0))
    classes: dict[int, ProgramDecl] = {}
    for index, stmts in enumerate(units):
        kind = kinds[index]
        found = contributions[index] if contributions is not None else unit_contribution(ctx, stmts, kind)
        if kind == "class":
            for name, span in found:
                classes[index] = ProgramDecl(name, "class", index, span)
                programs.append(classes[index])
            continue
        functions, closures = found
        in_class = kind == "member"
        target = classes.get(parents[index]) if in_class else module
        if target is not None:
            for node, (fkind, jit, attrs) in functions:
                target.functions.append(FunctionSource(node.name, index, node, fkind, jit, attrs, in_class))
        for closure in closures:
            programs.append(ProgramDecl(closure.name, closure.kind, index, closure.span,
                                        [replace(f, unit=index) for f in closure.functions], closure.parent))
    if module.functions:
        programs.insert(0, module)
    return programs


def _closures(ctx: ModuleContext, st: s.Stmt, index: int, programs: list[ProgramDecl],
              constants: dict[str, Any], owner: str) -> None:
    """Programs defined inside other code (most upstream test programs are closures)."""
    bodies = []
    if isinstance(st, (s.FunctionDef, s.ClassDef)):
        bodies = [st.body]
    elif isinstance(st, (s.If, s.For, s.While)):
        bodies = [st.body, st.orelse]
    elif isinstance(st, s.With):
        bodies = [st.body]
    elif isinstance(st, s.Other):
        bodies = list(st.bodies)
    for body in bodies:
        local = dict(constants)
        jit = ProgramDecl(f"<{owner or 'block'}>", "closure", index, st.span, parent="<module>")
        classes = []
        for inner in body:
            _record_constant(inner, local)
            if isinstance(inner, s.ClassDef) and is_program_class(ctx, inner):
                program = ProgramDecl(inner.name, "class", index, inner.name_span)
                for member in inner.body:
                    if isinstance(member, s.FunctionDef):
                        decorated = decorator_kind(ctx, member.decorators)
                        if decorated:
                            program.functions.append(FunctionSource(member.name, index, member, decorated[0],
                                                                    decorated[1], decorated[2], True, dict(local)))
                classes.append(program)
                continue
            if isinstance(inner, s.FunctionDef):
                decorated = decorator_kind(ctx, inner.decorators)
                if decorated:
                    jit.functions.append(FunctionSource(inner.name, index, inner, decorated[0], decorated[1],
                                                        decorated[2], False, dict(local)))
                    continue
            _closures(ctx, inner, index, programs, local, inner.name if isinstance(inner, s.FunctionDef) else owner)
        if jit.functions:
            programs.append(jit)  # before the classes beside it: they may call its functions by name
        for program in classes:
            program.parent = jit.name if jit.functions else None
            programs.append(program)
