"""The `pyptoLens` settings the server reads (workspace/configuration or initializationOptions)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from pypto_lens.presentation.graph_view import hazard_setting
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
    signatures: bool = True


@dataclass
class DiagnosticSettings:
    enabled: bool = True
    inParamWritten: bool = True
    syntaxErrors: bool = True
    unclassifiedOperators: bool = True
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

    def shows_direction(self, direction: str) -> bool:
        h = self.inlayHints
        return {"Input": h.input, "Output": h.output, "OutputExisting": h.output, "InOut": h.inout,
                "NoDep": h.noDep, "Scalar": h.scalar}.get(direction, True)

    def shows_diagnostic(self, code: str) -> bool:
        d = self.diagnostics
        if not d.enabled:
            return False
        return bool(getattr(d, DIAGNOSTIC_GROUPS.get(code, "misuse")))

    def shows(self, code: str, data: Any) -> bool:
        """A diagnostic with its data: a hazard follows the setting of its code's group, and an
        information-level one `hazards.information` as well; the others `shows_diagnostic`."""
        group = hazard_setting(code)
        if group is None:
            return self.shows_diagnostic(code)
        on = self.diagnostics.enabled and bool(getattr(self.hazards, group.split(".", 1)[1], True))
        uncertain = isinstance(data, Mapping) and data.get("setting") == "hazards.information"
        return on and (self.hazards.information or not uncertain)


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
        if not isinstance(current, bool) and not hasattr(current, "__dataclass_fields__"):
            continue
        if isinstance(current, bool):
            if isinstance(value, bool):
                setattr(target, key, value)
            else:
                problems.append(f"{prefix}.{key} should be true or false")
        else:
            _fill(current, value, f"{prefix}.{key}", problems)


def parse_settings(values: Any) -> Settings:
    """Settings from the `pyptoLens` section; bad values are reported and replaced by defaults."""
    settings = Settings()
    if isinstance(values, Mapping) and "pyptoLens" in values:
        values = values["pyptoLens"]
    if values is not None:
        _fill(settings, values, "pyptoLens", settings.problems)
    return settings
