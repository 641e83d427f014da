"""The derivation of a call's directions in words (spec H7): one text for hovers, inlay hint tooltips,
the explain command and `pypto-lens explain`; and what the registry says about an operator.

Markdown, with evidence as `line N` links when the caller gives a link maker.
"""
from __future__ import annotations

from typing import Callable

from ..registry.bundled import bundled_locations, bundled_source
from ..workspace.results import ArgHint, CallSite, DocumentAnalysis, Location, OperatorSite, SignatureChange, Step

LinkMaker = Callable[[Location, str], str]


def _plain(location: Location, text: str) -> str:
    return text


def where(step: Step, link: LinkMaker) -> str:
    if step.location is None:
        return ""
    r = step.location.range
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
    if not info.classified:
        lines += ["", "Declares no argument effects: every analysis reads it as writing nothing "
                      "(missing declarations are invisible)."]
    for label, index, effect in effects:
        rule = info.kwarg_effects.get(index) if index is not None else None
        note = f" — {rule.text}" if rule is not None and rule.text else ""
        where = f"argument {index}" if index is not None else "not an op argument"
        lines.append(f"- `{label}` ({where}): **{effect.value}**{note}")
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
        return f"No direction-bearing call at line {line + 1}."
    return f"# Directions at line {site.range.line + 1}\n\n" + call_markdown(site, link)


def markdown_link(uri: str) -> LinkMaker:
    """A link maker for hovers: `[line 12](file:///...#L12,5)` opens the place in VS Code and others."""
    def link(location: Location, text: str) -> str:
        target = location.uri or uri
        return f"[{text}]({target}#L{location.range.line + 1},{location.range.col + 1})"
    return link
