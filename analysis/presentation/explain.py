"""The derivation of a call's directions in words (spec H7): one text for hovers, inlay hint tooltips,
the explain command and `pypto-lens explain`; and what the registry says about an operator.

Markdown, with evidence as `line N` links when the caller gives a link maker.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..registry.bundled import bundled_locations, bundled_source
from ..ir.nodes import ArgDir
from ..workspace.results import (ArgHint, CallSite, DocumentAnalysis, Location, OperatorSite, Range, SignatureChange,
                                 Step)
from .hints import scope_order

LinkMaker = Callable[[Location, str], str]


def _plain(location: Location, text: str) -> str:
    return text


def where(step: Step, link: LinkMaker, here: Optional[Range] = None) -> str:
    """`line N` as a link; nothing when it points into `here` (the lines being hovered: a link there goes nowhere)."""
    if step.location is None:
        return ""
    r = step.location.range
    if here is not None and step.location.uri is None and here.line <= r.line <= here.end_line:
        return ""
    return link(step.location, f"line {r.line + 1}")


def hint_lines(hint: ArgHint, link: LinkMaker = _plain) -> list[str]:
    """One argument: its direction, the rule that fired, and the evidence."""
    e = hint.explanation
    arg = f" (`{hint.arg}`)" if hint.arg and hint.arg != hint.param else ""
    lines = [f"- **{hint.param}**{arg}: **{hint.direction.value}** — {e.rule}: {e.text}"]
    for step in e.steps:
        place = where(step, link)
        note = f" {step.note}" if step.note else ""
        lines.append(f"  - {step.label}{':' if note or place else ''}{note}{' at ' + place if place else ''}")
    if hint.copies:
        lines.append("  - several IR calls stand for this source call (inlining, unrolling): "
                     + ", ".join(d.value for d in hint.copies) + "; the strongest is shown (H3)")
    return lines


def call_markdown(site: CallSite, link: LinkMaker = _plain) -> str:
    what = "scope dispatch" if site.scope else ("submit" if site.submit else "call")
    kind = f" ({site.callee_kind})" if site.callee_kind != "?" else ""  # an unknown callee has no kind
    head = f"**{site.callee}**{kind} — {what} in `{site.function}`"
    lines = [head, ""]
    if site.skipped:
        lines.append(f"No directions: {site.skipped}")
    for hint in site.hints:
        lines.extend(hint_lines(hint, link))
    for note in site.notes:
        lines.append("")
        lines.append(f"_{note}_")
    return "\n".join(lines)


def call_hover(site: CallSite, link: LinkMaker = _plain, shows: Callable[[ArgDir], bool] = lambda d: True) -> str:
    """The hover of a call or scope header: the callee's signature, then one line per argument it shows."""
    what = "scope dispatch" if site.scope else ("submit" if site.submit else "call")
    kind = f" ({site.callee_kind})" if site.callee_kind != "?" else ""
    lines = []
    if site.signature:
        lines += ["```python", signature_text(site, shows(ArgDir.SCALAR)), "```", ""]
    lines += [f"**{site.callee}**{kind} — {what} in `{site.function}`", ""]
    if site.skipped:
        lines.append(f"No directions: {site.skipped}")
    hints = scope_order(site, shows) if site.scope else [h for h in site.hints if shows(h.direction)]
    for hint in hints:
        lines.append(hint_line(hint, link, site.range))
    for note in site.notes:
        lines += ["", f"_{note}_"]
    return "\n".join(lines)


def signature_text(site: CallSite, scalars: bool = True, width: int = 80) -> str:
    """`fill(src: In, n: scalar, dst: Out (declared In))`, wrapped as Python is at `width`; scalar
    parameters only when `scalars` (their hints are shown). An outlined scope's parameters are all
    inferred (O5): no declaration to compare with."""
    params = []
    for p in site.signature:
        if p.scalar and not scalars:
            continue
        note = "" if site.scope or p.scalar or p.effective == p.declared else f" (declared {p.declared})"
        params.append(f"{p.name}: {'scalar' if p.scalar else p.effective}{note}")
    head = f"{site.callee}("
    lines, current = [], head
    for k, text in enumerate(params):
        piece = text + (", " if k < len(params) - 1 else ")")
        if current.strip() and len(current) + len(piece.rstrip()) > width and current != head:
            lines.append(current.rstrip())
            current = " " * len(head)
        current += piece
    if not params:
        current += ")"
    lines.append(current.rstrip())
    return "\n".join(lines)


def hint_line(hint: ArgHint, link: LinkMaker = _plain, here: Optional[Range] = None) -> str:
    """One argument on one line: its direction, the rule, the evidence as links."""
    e = hint.explanation
    arg = f" (`{hint.arg}`)" if hint.arg and hint.arg != hint.param else ""
    places = []
    for step in e.steps:
        place = where(step, link, here)
        if place:
            places.append(f"{step.label} {place}")
    evidence = f" ({', '.join(places)})" if places else ""
    copies = (" — copies: " + ", ".join(d.value for d in hint.copies)) if hint.copies else ""
    return f"- **{hint.param}**{arg}: **{hint.direction.value}** — {e.rule}: {e.text}{evidence}{copies}"


def operator_markdown(site: OperatorSite) -> str:
    """What the registry declares about an operator, and the effect on each argument of this call."""
    dsl, op_name, info, effects = site.dsl, site.op, site.info, site.effects
    if op_name is None:
        return f"**{dsl}**: not an operator this version of PyPTO registers (read as reading its arguments)"
    lines = [f"**{op_name}**" + (f" (from `{dsl}`)" if dsl != op_name else "")]
    if info is None:
        lines.append("")
        lines.append("Not in the registry: read as reading its arguments.")
        return "\n".join(lines)
    if not info.classified:  # the same words as its UnclassifiedOperator note
        lines += ["", "Declares no argument effects (no .set_arg_effect, no .no_arg_writes): PyPTO's analyses read "
                      "it as writing none of its arguments, so each is read only:"]
    for label, index, effect in effects:
        rule = info.kwarg_effects.get(index) if index is not None else None
        note = f" — {rule.text}" if rule is not None and rule.text else ""
        where = f"argument {index}" if index is not None else "not an op argument"
        value = "read (nothing declared)" if not info.classified else f"**{effect.value}**"
        lines.append(f"- `{label}` ({where}): {value}{note}")
    extra = []
    if info.no_arg_writes:
        extra.append("declares that it writes no argument")
    if info.write_channel:
        extra.append(f"write channel {info.write_channel}")
    if info.output_reuses_input is not None:
        extra.append(f"its result reuses argument {info.output_reuses_input}")
    if info.is_view:
        extra.append("a zero-copy view of its input")
    if extra:
        lines += ["", "; ".join(extra).capitalize() + "."]
    lines += ["", f"Declared {_declared(site)}."]
    return "\n".join(lines)


def _declared(site: OperatorSite) -> str:
    """Where the operator's effects were declared: the workspace's sources, or PyPTO's (bundled)."""
    info = site.info
    if info is None:
        return "nowhere"
    if info.location is not None:
        return f"at {info.location.path}:{info.location.line + 1} (this workspace's registry)"
    where = bundled_locations().get(site.op)
    commit = str(bundled_source().get("commit", ""))[:8]
    place = f"at {where.path}:{where.line + 1} in PyPTO" if where else "in PyPTO"
    return f"{place} (the bundled table{', commit ' + commit if commit else ''})"


def signature_markdown(change: SignatureChange, link: LinkMaker = _plain) -> str:
    """Why a parameter's effective direction differs from its declaration (U, P, W, O)."""
    lines = [f"**{change.param}** of `{change.function}` is declared **{change.declared}**, "
             f"effectively **{change.effective}**:"]
    for e in change.explanation:
        lines.append(f"- {e.rule}: {e.text}")
        for step in e.steps:
            if step.location is not None:
                lines.append(f"  - {step.label}: {step.note} at {where(step, link)}")
    return "\n".join(lines)


def explain_at(analysis: DocumentAnalysis, line: int, col: int, link: LinkMaker = _plain) -> str:
    """The explain command's answer: the call at the position, else the first call on its line."""
    site = analysis.call_at(line, col) or next(iter(analysis.calls_on_line(line)), None)
    if site is None:
        from .expansions import helper_call_at, helper_calls, hover_markdown  # (it builds on this module)
        helper = helper_call_at(analysis, line, col) or next((c for c in helper_calls(analysis)
                                                              if c.range.line == line), None)
        if helper is not None:
            return f"# What line {line + 1} launches\n\n" + hover_markdown(helper, link)
        return f"No direction-bearing call at line {line + 1}."
    return f"# Directions at line {site.range.line + 1}\n\n" + call_markdown(site, link)


def markdown_link(uri: str) -> LinkMaker:
    """A link maker for hovers: `[line 12](file:///...#L12,5)` opens the place in VS Code and others."""
    def link(location: Location, text: str) -> str:
        target = location.uri or uri
        return f"[{text}]({target}#L{location.range.line + 1},{location.range.col + 1})"
    return link
