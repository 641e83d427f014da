"""Find `REGISTER_OP(...)...;` statements in C++ text, and split one into tokens.

The island parser only looks closely at registration statements. Everything
else is skipped by one regular expression that jumps over comments, string and
character literals and preprocessor lines, stopping only at the word
`REGISTER_OP`. Neither function raises: unterminated comments and literals end
at the end of the text (strings at the end of their line, as in C++).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

# Pieces of C++ that may contain brackets or the word REGISTER_OP without them counting.
_COMMENT = r"//[^\n]*(?:\\\n[^\n]*)*|/\*[\s\S]*?(?:\*/|\Z)"
_PREPROCESSOR = r"^[ \t]*\#(?:\\\n|[^\n])*"
_RAW_STRING = r'(?<!\w)(?:u8|[uUL])?R"(?P<delim>[^()\\\s"]{0,16})\([\s\S]*?(?:\)(?P=delim)"|\Z)'
_STRING = r'"(?:[^"\\\n]|\\[\s\S])*(?:"|$)'
# A quote after a hex digit is a digit separator (1'000), not a character literal.
_CHAR = r"(?<![0-9A-Fa-f])'(?:[^'\\\n]|\\[\s\S])*(?:'|$)"

# Outside statements: skip the pieces above, stop at REGISTER_OP.
_OUTSIDE = re.compile(
    rf"(?P<skip>{_COMMENT}|{_PREPROCESSOR}|{_RAW_STRING}|{_STRING}|{_CHAR})|(?P<reg>\bREGISTER_OP\b)",
    re.MULTILINE)

# Inside a statement: also track brackets and the terminating semicolon.
_INSIDE = re.compile(
    rf"(?P<skip>{_COMMENT}|{_PREPROCESSOR}|{_RAW_STRING}|{_STRING}|{_CHAR})"
    r"|(?P<reg>\bREGISTER_OP\b)|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<semi>;)",
    re.MULTILINE)

# Whitespace, comments and preprocessor lines between a closing bracket and what follows it.
_GAP = re.compile(rf"(?:\s+|{_COMMENT}|\#(?:\\\n|[^\n])*)*")

# After a chain's `)` at depth 0 only these continue the statement.
_CONTINUES = frozenset(".;>")


@dataclass(frozen=True)
class Statement:
    """One registration statement: `text[start:end]` of the file.

    `terminated` is True when it ended with its own `;` (not at the end of
    the text, another REGISTER_OP or a stray closing bracket).
    """

    start: int
    end: int
    terminated: bool


def find_statements(text: str) -> Iterator[Statement]:
    """Every REGISTER_OP statement outside comments, literals and preprocessor lines."""
    pos = 0
    search_outside = _OUTSIDE.search
    while True:
        m = search_outside(text, pos)
        if m is None:
            return
        if m.lastgroup != "reg":
            pos = m.end()
            continue
        statement = _statement_from(text, m.start())
        yield statement
        pos = max(statement.end, m.end())


def _statement_from(text: str, start: int) -> Statement:
    depth = 0
    search = _INSIDE.search
    pos = start + len("REGISTER_OP")
    while True:
        m = search(text, pos)
        if m is None:
            return Statement(start, len(text), False)
        kind = m.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            if depth == 0:  # e.g. the `}` of a namespace: the `;` is missing
                return Statement(start, m.start(), False)
            depth -= 1
            if depth == 0:
                follow = _GAP.match(text, m.end()).end()
                if follow < len(text) and text[follow] not in _CONTINUES:
                    return Statement(start, m.end(), False)  # missing `;`
        elif kind == "semi":
            if depth == 0:
                return Statement(start, m.end(), True)
        elif kind == "reg":
            return Statement(start, m.start(), False)  # the next registration began
        pos = m.end()


# ---------------------------------------------------------------------------
# Tokens of one statement, for the lark grammar in cpp_grammar.lark.

_TOKEN = re.compile(
    rf"(?P<ws>\s+)|(?P<comment>{_COMMENT})|(?P<pp>{_PREPROCESSOR})"
    rf"|(?P<STRING>{_RAW_STRING}|(?:u8|[uUL])?{_STRING})"
    rf"|(?P<CHAR>(?:u8|[uUL])?{_CHAR})"
    r"|(?P<NUMBER>\.?\d(?:[eEpP][-+]|[\w.'])*)"
    r"|(?P<NAME>[^\W\d]\w*)"
    # `>>` stays two tokens: it closes two template argument lists as often as it shifts.
    r"|(?P<OP>::|->\*?|\.\*|\+\+|--|<<=|<=>|<=|>=|==|!=|&&|\|\||[-+*/%^&|]=|<<|\.\.\.|[^\s\w])",
    re.MULTILINE)

_PUNCTUATION = {
    "(": "LPAR", ")": "RPAR", "{": "LBRACE", "}": "RBRACE", "[": "LSQB", "]": "RSQB",
    ",": "COMMA", ";": "SEMI", ".": "DOT", "<": "LESS", ">": "MORE",
}


@dataclass(frozen=True)
class CppToken:
    """A token of a statement; positions are relative to the statement's start."""

    type: str
    value: str
    start: int  # offset into the statement text
    end: int
    line: int  # 0-based, relative to the statement's first line
    col: int  # 0-based code-point column (on line 0: relative to the statement start)
    end_line: int
    end_col: int  # exclusive


def tokenize(text: str) -> list[CppToken]:
    """Tokens of a statement's text; comments and preprocessor lines are dropped."""
    tokens: list[CppToken] = []
    match = _TOKEN.match
    pos, line, line_start, end = 0, 0, 0, len(text)
    while pos < end:
        m = match(text, pos)
        kind = m.lastgroup  # the OP alternative matches any non-space character
        value = m.group()
        new_pos = m.end()
        newlines = value.count("\n")
        if newlines:
            end_line = line + newlines
            end_line_start = pos + value.rindex("\n") + 1
        else:
            end_line, end_line_start = line, line_start
        if kind not in ("ws", "comment", "pp"):
            if kind == "NAME" and value == "REGISTER_OP":
                kind = "REGISTER_OP"
            elif kind == "OP":
                kind = _PUNCTUATION.get(value, "OP")
            tokens.append(CppToken(kind, value, pos, new_pos, line, pos - line_start,
                                   end_line, new_pos - end_line_start))
        line, line_start, pos = end_line, end_line_start, new_pos
    return tokens
