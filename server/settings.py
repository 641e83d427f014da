"""The `pyptoLens` settings the server reads (workspace/configuration or initializationOptions)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping, Optional

from pypto_lens.presentation.graph_view import hazard_setting
from pypto_lens.presentation.hints import DEFAULT_BUDGET, SCOPE_STYLES, STYLES, HintOptions
from pypto_lens.vocabulary import Code

# which setting switches each diagnostic code (the others: `misuse`)
DIAGNOSTIC_GROUPS = {
    Code.IN_PARAM_WRITTEN: "inParamWritten",
    Code.SYNTAX_ERROR: "syntaxErrors",
    Code.UNCLASSIFIED_OPERATOR: "unclassifiedOperators",
    Code.UNKNOWN_OPERATOR: "unclassifiedOperators",
    Code.ARG_EFFECT_CONTRADICTION: "registrations",
    Code.WRITE_CHANNEL_WITHOUT_WRITE: "registrations",
    Code.REUSE_WITHOUT_ARG_EFFECT: "registrations",
    Code.NULL_RESOLVER: "registrations",
    Code.DUPLICATE_WRITE_CHANNEL: "registrations",
    Code.DUPLICATE_CORE_AFFINITY: "registrations",
    Code.DUPLICATE_OP: "registrations",
    Code.UNPARSED_REGISTRATION: "registrations",
}


@dataclass
class HintSettings:
    enabled: bool = True
    input: bool = True
    output: bool = True  # Output and OutputExisting
    inout: bool = True
    noDep: bool = True
    scalar: bool = False
    scopeHeaders: bool = True
    helperCalls: bool = True  # what each call of an inline helper launches, in a code lens above it (N1)
    signatures: bool = True
    labelStyle: str = "short"  # 'short': a word, fitted into the line's budget; 'full': H5, every hint
    scopeHeaderStyle: str = "codeLens"  # short labels: a scope's captures in a lens above it, or 'inline'


@dataclass
class DiagnosticSettings:
    enabled: bool = True
    inParamWritten: bool = True
    syntaxErrors: bool = True
    # 'auto': only where the workspace holds PyPTO's operator sources (its own registrations are
    # what these are about); 'on' / 'off' (true / false are read as those)
    unclassifiedOperators: str = "auto"
    registrations: bool = True
    misuse: bool = True  # every other error (pl.no_dep on a scalar, bad no_dep_args, ...)


@dataclass
class HazardSettings:
    """One switch per group of hazard codes (pipeline/hazards.py HAZARD_CODES names them `hazards.<field>`)."""

    unorderedWriteAfterRead: bool = True  # Z1
    unorderedWriteAfterWrite: bool = True  # Z2
    noDep: bool = True  # Z3
    manualScope: bool = True  # Z4
    scopeWindow: bool = True  # Z7
    information: bool = False  # the uncertain ones too (diagnostics, the graph, its counts, the hover)


@dataclass
class TaskGraphSettings:
    codeLens: bool = True  # the counts over each orchestration-like function, opening its graph


@dataclass
class Settings:
    inlayHints: HintSettings = field(default_factory=HintSettings)
    diagnostics: DiagnosticSettings = field(default_factory=DiagnosticSettings)
    hazards: HazardSettings = field(default_factory=HazardSettings)
    taskGraph: TaskGraphSettings = field(default_factory=TaskGraphSettings)
    problems: list[str] = field(default_factory=list)  # what was wrong in the user's settings
    # the editor's cap on one line's hint text (editor.inlayHints.maximumLength; 0: none), not ours
    hint_budget: int = DEFAULT_BUDGET

    def shows_direction(self, direction: str) -> bool:
        h = self.inlayHints
        return {"Input": h.input, "Output": h.output, "OutputExisting": h.output, "InOut": h.inout,
                "NoDep": h.noDep, "Scalar": h.scalar}.get(direction, True)

    def hint_options(self) -> HintOptions:
        h = self.inlayHints
        return HintOptions(style=h.labelStyle, budget=self.hint_budget,
                           shows=lambda direction: self.shows_direction(direction.value),
                           scope_headers=h.scopeHeaders, signatures=h.signatures, scope_style=h.scopeHeaderStyle)

    def shows_diagnostic(self, code: str, pypto_sources: bool = False) -> bool:
        """`pypto_sources`: the workspace holds PyPTO's operator sources (the operator notes' 'auto')."""
        d = self.diagnostics
        if not d.enabled:
            return False
        group = DIAGNOSTIC_GROUPS.get(code, "misuse")
        if group == "unclassifiedOperators":
            return d.unclassifiedOperators == "on" or (d.unclassifiedOperators == "auto" and pypto_sources)
        return bool(getattr(d, group))


    def shows(self, code: str, data: Any, pypto_sources: bool = False) -> bool:
        """A diagnostic with its data: a hazard follows the setting of its code's group, and an
        information-level one `hazards.information` as well; the others `shows_diagnostic`."""
        group = hazard_setting(code)
        if group is None:
            return self.shows_diagnostic(code, pypto_sources)
        on = self.diagnostics.enabled and bool(getattr(self.hazards, group.split(".", 1)[1], True))
        uncertain = isinstance(data, Mapping) and data.get("setting") == "hazards.information"
        return on and (self.hazards.information or not uncertain)


# the string settings and the values they take (booleans read as the value they stand for)
CHOICES = {"labelStyle": STYLES, "scopeHeaderStyle": SCOPE_STYLES, "unclassifiedOperators": ("auto", "on", "off")}
BOOLEAN_CHOICES = {"unclassifiedOperators": {True: "on", False: "off"}}


def _fill(target: Any, values: Any, prefix: str, problems: list[str]) -> None:
    if not isinstance(values, Mapping):
        if values is not None:
            problems.append(f"{prefix} should be an object")
        return
    known = {f.name: f for f in fields(target)}
    for key, value in values.items():
        f = known.get(key)
        if f is None:
            continue  # settings of newer versions or of the extension: not ours
        current = getattr(target, key)
        if key in CHOICES:
            if isinstance(value, bool) and key in BOOLEAN_CHOICES:
                value = BOOLEAN_CHOICES[key][value]
            if value in CHOICES[key]:
                setattr(target, key, value)
            else:
                problems.append(f"{prefix}.{key} should be one of " + ", ".join(map(repr, CHOICES[key])))
            continue
        if not isinstance(current, bool) and not hasattr(current, "__dataclass_fields__"):
            continue
        if isinstance(current, bool):
            if isinstance(value, bool):
                setattr(target, key, value)
            else:
                problems.append(f"{prefix}.{key} should be true or false")
        else:
            _fill(current, value, f"{prefix}.{key}", problems)


def hint_budget(editor: Any) -> int:
    """The editor's `editor.inlayHints` section's maximumLength, else VS Code's default."""
    value = editor.get("maximumLength") if isinstance(editor, Mapping) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return DEFAULT_BUDGET
    return int(value)


def parse_settings(values: Any, budget: Optional[int] = None) -> Settings:
    """Settings from the `pyptoLens` section; bad values are reported and replaced by defaults."""
    settings = Settings(hint_budget=DEFAULT_BUDGET if budget is None else budget)
    if isinstance(values, Mapping) and "pyptoLens" in values:
        values = values["pyptoLens"]
    if values is not None:
        _fill(settings, values, "pyptoLens", settings.problems)
    return settings
