"""The derivation of a call's directions in words (spec H7): one text for hovers and `explain`.

Markdown, with evidence as `line N` links when the caller gives a link maker.
"""
from __future__ import annotations

from typing import Callable, Optional

from .results import ArgHint, CallSite, Location, Step

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


def call_markdown(site: CallSite, link: LinkMaker = _plain, only: Optional[int] = None) -> str:
    what = "scope dispatch" if site.scope else ("submit" if site.submit else "call")
    head = f"**{site.callee}** ({site.callee_kind}) — {what} in `{site.function}`"
    lines = [head, ""]
    if site.skipped:
        lines.append(f"No directions: {site.skipped}")
    for hint in site.hints:
        if only is not None and hint.index != only:
            continue
        lines.extend(hint_lines(hint, link))
    for note in site.notes:
        lines.append("")
        lines.append(f"_{note}_")
    return "\n".join(lines)
