"""The words of PyPTO Lens that every layer shares, each defined once: diagnostic codes and severities.

They are str-valued enums (`Word`): a member is its string (`Severity.ERROR == "error"`, in
JSON, in f-strings and as a dict key), so output stays as it was and a comparison with the
string still holds. The IR's own words (scope and loop kinds, how a call names its callee)
are in ir/nodes.py, a function's origin in pipeline/model.py.
"""
from __future__ import annotations

import enum


class Word(str, enum.Enum):
    """A str-valued enum that prints as its value on every Python version."""

    def __str__(self) -> str:
        return self.value


class Severity(Word):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"


class Code(Word):
    """Every diagnostic code (README, "Diagnostics")."""

    # pl programs
    IN_PARAM_WRITTEN = "InParamWritten"  # IW
    SYNTAX_ERROR = "SyntaxError"
    INVALID_UTF8 = "InvalidUtf8"
    UNRESOLVED_IMPORT = "UnresolvedImport"  # S6
    NOT_ANALYSED = "NotAnalysed"  # too big, binary, unreadable (README, "Known limits")
    UNCLASSIFIED_OPERATOR = "UnclassifiedOperator"
    UNKNOWN_OPERATOR = "UnknownOperator"
    IN_OUT_USE_DISCIPLINE = "InOutUseDiscipline"
    NO_DEP_ON_SCALAR = "NoDepOnScalar"  # D3
    NO_DEP_ARGS = "NoDepArgs"  # S12
    NO_DEP_ARG_NOT_CAPTURED = "NoDepArgNotCaptured"  # S12
    PREFILLED_DIRECTIONS = "PrefilledDirections"  # S11, D3
    INVALID_ANNOTATION = "InvalidAnnotation"  # S2
    UNSUPPORTED = "Unsupported"  # a removed API
    ANALYSIS_FAILED = "AnalysisFailed"
    TOO_DEEP = "TooDeep"
    # REGISTER_OP chains in C++ sources (spec §14)
    ARG_EFFECT_CONTRADICTION = "ArgEffectContradiction"  # V1
    NULL_RESOLVER = "NullResolver"  # V1
    DUPLICATE_WRITE_CHANNEL = "DuplicateWriteChannel"  # V1
    DUPLICATE_CORE_AFFINITY = "DuplicateCoreAffinity"  # V1
    DUPLICATE_OP = "DuplicateOp"  # V1
    WRITE_CHANNEL_WITHOUT_WRITE = "WriteChannelWithoutWrite"  # V2
    REUSE_WITHOUT_ARG_EFFECT = "ReuseWithoutArgEffect"  # V3
    UNPARSED_REGISTRATION = "UnparsedRegistration"  # a chain read only up to where it stops parsing
