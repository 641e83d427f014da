"""Inlay hints as a user reads them: labels (H5) and what each line shows of them.

Two label styles:

- `short` (the default): one word per ArgDirection before the argument (`in`,
  `OUT`, `INOUT`, `NODEP`, `NEW`, `scalar`: a written one in capitals, so that it
  stands out from the reads, and `in` from Python's keyword); the parameter, the full name and
  the derivation are the hint's tooltip. Each line's hints are fitted into the
  editor's budget for one line's hint text (VS Code cuts past
  `editor.inlayHints.maximumLength`, 43 characters): the written directions
  (Out, InOut, NoDep, and a pre-filled Output) always, a call's Input hints
  where the line has room for all of them. A scope header shows its captures
  after its `:`, written ones first, grouped by direction and sorted by name
  (an edit of the body does not reorder them), with `+N` for the rest.
- `full`: H5's form, `dst (buf): OutputExisting`, every hint, unfitted (the
  shared checkers read these names).

A scope header's captures go, by default, in a code lens above the header
(`scope_lens`): real models' headers are long and deeply indented, so hints
after their `:` start past the right edge of the window; the lens starts at the
header's indentation and has room for every written capture. `inline` puts them
after the `:` instead, fitted like the rest of the line (`scope_header`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..ir.nodes import ArgDir
from ..workspace.results import ArgHint, CallSite, DocumentAnalysis, SignatureChange

SHORT, FULL = "short", "full"
STYLES = (SHORT, FULL)
LENS, INLINE = "codeLens", "inline"  # where a scope header's captures go (short style)
SCOPE_STYLES = (LENS, INLINE)
LENS_LENGTH = 100  # characters of a lens' title: the written captures always, inputs while there is room
DEFAULT_BUDGET = 43  # VS Code's editor.inlayHints.maximumLength

WORDS = {ArgDir.INPUT: "in", ArgDir.OUTPUT_EXISTING: "out", ArgDir.INOUT: "inout", ArgDir.NO_DEP: "nodep",
         ArgDir.OUTPUT: "new", ArgDir.SCALAR: "scalar"}
# in the code, before an argument: a written direction stands out from a read (and from Python's `in`)
HINT_WORDS = {**WORDS, ArgDir.OUTPUT_EXISTING: "OUT", ArgDir.INOUT: "INOUT", ArgDir.NO_DEP: "NODEP",
              ArgDir.OUTPUT: "NEW"}
# what a line shows first, in this order on a scope header
FIRST = (ArgDir.OUTPUT_EXISTING, ArgDir.INOUT, ArgDir.OUTPUT, ArgDir.NO_DEP)
THEN = (ArgDir.INPUT, ArgDir.SCALAR)


def label(hint: ArgHint) -> str:
    """H5: `dst: OutputExisting`, or `dst (buf): OutputExisting` when the argument's name differs."""
    if hint.arg and hint.arg != hint.param:
        return f"{hint.param} ({hint.arg}): {hint.direction.value}"
    return f"{hint.param}: {hint.direction.value}"


def signature_label(change: SignatureChange) -> str:
    """After a parameter whose effective direction differs from its declaration (D6)."""
    return f"effective {change.effective}"


@dataclass(frozen=True)
class HintOptions:
    style: str = SHORT
    budget: int = DEFAULT_BUDGET  # characters of hint text a line may show; 0: no cap
    shows: Callable[[ArgDir], bool] = lambda direction: direction is not ArgDir.SCALAR
    scope_headers: bool = True
    signatures: bool = True
    scope_style: str = LENS  # (short style only: the full style's hints stay on the header)

    @property
    def scope_lenses(self) -> bool:
        return self.scope_headers and self.style == SHORT and self.scope_style == LENS


@dataclass(frozen=True)
class ShownHint:
    """One inlay hint as the editor draws it."""

    line: int
    col: int
    label: str
    link: int  # how many leading characters of the label link to the callee parameter (0: none)
    hints: tuple[ArgHint, ...]  # the arguments it stands for (one; all that did not fit, for `+N`)
    scope: bool = False  # at the end of a scope header (space before it), else before an argument
    signature: Optional[SignatureChange] = None
    more: bool = False  # `+N`: what did not fit


def shown_hints(analysis: DocumentAnalysis, options: HintOptions,
                lines: Optional[tuple[int, int]] = None) -> list[ShownHint]:
    """Every hint of the document (of lines [first, last] with `lines`: a request costs the lines it
    asks about), in position order, as the options show them."""
    per_line: dict[int, list] = {}  # line -> [(priority, [ShownHint, ...]) or a scope site]
    sites = analysis.calls if lines is None else analysis.calls_between(*lines)
    for site in sites:
        if site.scope:
            if options.scope_headers and site.hints and not options.scope_lenses:
                per_line.setdefault(site.hints[0].line, []).append(site)
            continue
        groups: dict = {}
        for hint in site.hints:
            if options.shows(hint.direction):
                groups.setdefault((hint.line, _priority(hint.direction)), []).append(hint)
        for (line, priority), hints in groups.items():
            items = [_argument(h, options.style) for h in hints]
            if priority == 0:
                per_line.setdefault(line, []).extend((0, [item]) for item in items)
            else:  # a call's Input (or Scalar) hints on one line: all of them or none
                per_line.setdefault(line, []).append((priority, items))
    if options.signatures:
        for change in analysis.signatures:
            item = ShownHint(change.line, change.col, signature_label(change), 0, (), signature=change)
            per_line.setdefault(change.line, []).append((0, [item]))
    out: list[ShownHint] = []
    for line in sorted(per_line):
        if lines is None or lines[0] <= line <= lines[1]:  # (a line is fitted as a whole)
            out.extend(_fit(per_line[line], options))
    out.sort(key=lambda h: (h.line, h.col))
    return out


def _priority(direction: ArgDir) -> int:
    return 2 if direction is ArgDir.SCALAR else 1 if direction is ArgDir.INPUT else 0


def _argument(hint: ArgHint, style: str) -> ShownHint:
    if style == FULL:
        return ShownHint(hint.line, hint.col, label(hint), len(hint.param), (hint,))
    word = HINT_WORDS[hint.direction]
    return ShownHint(hint.line, hint.col, word, len(word), (hint,))


def _fit(entries: list, options: HintOptions) -> list[ShownHint]:
    """One line's hints: in full style all of them; in short style what its budget holds."""
    sites = [e for e in entries if isinstance(e, CallSite)]
    groups = [e for e in entries if not isinstance(e, CallSite)]
    if options.style == FULL:
        out = [item for _, items in groups for item in items]
        for site in sites:
            out.extend(ShownHint(h.line, h.col, label(h), len(h.param), (h,), scope=True)
                       for h in site.hints if options.shows(h.direction))
        return out
    cap = options.budget if options.budget > 0 else None
    chosen = [item for priority, items in groups if priority == 0 for item in items]
    used = sum(len(item.label) for item in chosen)
    for priority in (1, 2):
        for p, items in sorted((g for g in groups if g[0] == priority), key=lambda g: (g[1][0].col,)):
            size = sum(len(item.label) for item in items)
            if cap is None or used + size <= cap:
                chosen.extend(items)
                used += size
    for site in sites:
        header = scope_header(site, None if cap is None else max(cap - used, 0), options.shows)
        chosen.extend(header)
        used += sum(len(item.label) for item in header)
    return chosen


def scope_order(site: CallSite, shows: Callable[[ArgDir], bool] = lambda d: True) -> list[ArgHint]:
    """A scope's captures as its header and hover list them: written ones first, grouped by
    direction, each group by name (stable under edits of the body)."""
    rank = {d: k for k, d in enumerate(FIRST + THEN)}
    return sorted((h for h in site.hints if shows(h.direction)),
                  key=lambda h: (rank.get(h.direction, len(rank)), h.param, h.index))


def scope_header(site: CallSite, budget: Optional[int], shows: Callable[[ArgDir], bool]) -> list[ShownHint]:
    """The hints after a scope header's `:` in short style: `out a`, `b`, `inout c`, `in d`, `+2 in`.

    In order, the first that fits the budget: every capture; the written ones and the inputs that
    fit, `+N` for the rest; the written ones alone; the written ones with their names shortened
    (`cont…s_0`, at least SHORTEST_NAME characters); the first written ones in full, `+N` for the rest."""
    captures = scope_order(site, shows)
    if not captures:
        return []
    written = sum(1 for h in captures if h.direction in FIRST)
    names = [h.param for h in captures]
    keep = len(captures)
    if budget is not None and _width(captures, names, keep) > budget:
        fits = [k for k in range(written, len(captures)) if _width(captures, names, k) <= budget]
        if fits:
            keep = max(fits)
        elif _width(captures, names, written, marker=False) <= budget:
            keep = written  # the written ones in full matter more than the count of the rest
        else:
            short = _shortened(captures, written, budget)
            if _width(captures, short, written, marker=False) <= budget:
                names, keep = short, written
            else:  # too many to shorten legibly: the first ones in full, `+N` for the rest
                keep = max([k for k in range(written) if _width(captures, names, k) <= budget], default=0)
    line, col = captures[0].line, captures[0].col
    out = [ShownHint(line, col, text, 0, (h,), scope=True)
           for h, text in zip(captures[:keep], _labels(captures[:keep], names))]
    rest = keep < len(captures)
    if rest and (budget is None or _width(captures, names, keep) <= budget):
        out.append(ShownHint(line, col, _more(captures, keep), 0, tuple(captures[keep:]), scope=True, more=True))
    return out


SHORTEST_NAME = 8  # a shortened capture name keeps this many characters, `…` included: `cont…s_0`


def shorten(name: str, limit: int) -> str:
    """`context_slots_0` -> `cont…s_0`: both ends kept (models' names differ at either end)."""
    if len(name) <= limit:
        return name
    tail = (limit - 1) // 2
    return name[:limit - 1 - tail] + "…" + name[len(name) - tail:]


def _labels(captures: list[ArgHint], names: list[str]) -> list[str]:
    """`word name` for the first capture of each direction, the name alone for the others."""
    out, last = [], None
    for h, name in zip(captures, names):
        out.append(name if h.direction is last else f"{HINT_WORDS[h.direction]} {name}")
        last = h.direction
    return out


def _width(captures: list[ArgHint], names: list[str], keep: int, marker: bool = True) -> int:
    """The characters of the first `keep` captures' labels, and of the `+N` for the rest when `marker`."""
    shown = sum(map(len, _labels(captures[:keep], names)))
    return shown + (len(_more(captures, keep)) if marker and keep < len(captures) else 0)


def _shortened(captures: list[ArgHint], written: int, budget: int) -> list[str]:
    """The names, the written ones cut to the longest length (down to SHORTEST_NAME) at which they fit."""
    names = [h.param for h in captures]
    longest = max(len(n) for n in names[:written])
    cut = names
    for limit in range(longest, SHORTEST_NAME - 1, -1):
        cut = [shorten(n, limit) if k < written else n for k, n in enumerate(names)]
        if _width(captures, cut, written, marker=False) <= budget:
            break
    return cut


def _more(captures: list[ArgHint], keep: int) -> str:
    """`+N`, with the direction's word when every capture left out has the same one and none shown does."""
    rest = captures[keep:]
    directions = {h.direction for h in rest}
    if len(directions) == 1 and all(h.direction not in directions for h in captures[:keep]):
        return f"+{len(rest)} {HINT_WORDS[rest[0].direction]}"
    return f"+{len(rest)}"


@dataclass(frozen=True)
class ScopeLens:
    """A code lens above a scope header: its captures, written ones first, grouped by direction."""

    line: int  # the header's first line (the lens sits above it)
    col: int
    title: str  # `out a, b · inout c · in d, e`
    site: CallSite
    tooltip: str = ""


def scope_lenses(analysis: DocumentAnalysis, options: HintOptions) -> list[ScopeLens]:
    if not options.scope_lenses:
        return []
    out = []
    for site in analysis.calls:
        if site.scope and site.hints:
            title = lens_title(scope_order(site, options.shows))
            if title:
                out.append(ScopeLens(site.range.line, site.range.col, title, site, scope_tooltip(site)))
    return out


def scope_tooltip(site: CallSite) -> str:
    """What a scope's lens stands for. An inline helper's header has no directions of its own: they are
    its callers' expansions (N1, helper_callers.py), which the tooltip names (not the title: their count
    changes while the callers are lent again after an edit, and a count says nothing by itself)."""
    what = "its captured buffers' directions, the written ones first"
    if site.lent:
        calls = "its one call" if len(site.lent) == 1 else f"its {len(site.lent)} calls"
        what = (f"{what}, as {calls} expand this inline helper's scope (N1): {', '.join(site.lent)}; "
                "where they disagree, each capture shows the strongest (H3)")
    return f"{site.callee}: {what}. Click: how each was derived."


def lens_title(captures: list[ArgHint], length: int = LENS_LENGTH) -> str:
    """`out a, b · inout c · in d, e`: every written capture; inputs while the title has room (`in d +3`,
    or `+4 in` when none has)."""
    groups: list[tuple[ArgDir, list[str]]] = []
    for h in captures:
        if groups and groups[-1][0] is h.direction:
            groups[-1][1].append(h.param)
        else:
            groups.append((h.direction, [h.param]))
    parts: list[str] = []
    for direction, names in groups:
        word = WORDS[direction]
        if direction in FIRST:
            parts.append(f"{word} " + ", ".join(names))
            continue
        for keep in range(len(names), -1, -1):  # inputs (and Scalars) give way
            more = f" +{len(names) - keep}" if keep < len(names) else ""
            part = f"{word} " + ", ".join(names[:keep]) + more if keep else f"+{len(names)} {word}"
            if keep == 0 or len(" · ".join(parts + [part])) <= length:
                parts.append(part)
                break
    return " · ".join(parts)
