"""A fast lexer for the grammar in python_subset.lark, plugged into lark.

One compiled regular expression finds each lexeme; a table built from the
compiled grammar gives its terminal name. This is about three times faster
than lark's contextual lexer, which matters on every keystroke.
"""
from __future__ import annotations

import re
from typing import Iterator

from lark import Token
from lark.lexer import Lexer

# blanks before a lexeme are matched with it (a third of the matches were blanks alone); an opening
# triple quote with no closing one is no empty string and the next (Python's tokenizer reads it first)
_LEXEME = re.compile(r"""
[ \t\f]*(?:
 (?P<ws>\\[ \t\f]*\n)
|(?P<nl>(?:\n[ \t\f]*|\#[^\n]*)+)
|(?P<long>[rRbBuUfF]{0,2}(?:\"\"\"(?:[^"\\]|\\[\s\S]|"(?!""))*\"\"\"|'''(?:[^'\\]|\\[\s\S]|'(?!''))*'''))
|(?P<str>[rRbBuUfF]{0,2}(?:(?!\"\"\")"(?:[^"\\\n]|\\[\s\S])*"|(?!''')'(?:[^'\\\n]|\\[\s\S])*'))
|(?P<num>0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d[\d_]*)?[jJ]?)
|(?P<name>[^\W\d]\w*)
|(?P<op>\*\*=|//=|>>=|<<=|\.\.\.|:=|->|\*\*|//|<<|>>|<=|>=|==|!=|[-+*/%@&|^]=|[-+*/%@&|^~<>()\[\]{},:;.=])
)""", re.VERBOSE)
_BLANKS = re.compile(r"[ \t\f]*")

_NOT_IN = re.compile(r"[ \t]+in\b")
_IS_NOT = re.compile(r"[ \t]+not\b")

# lexemes of named terminals whose grammar pattern is a regex
_REGEX_TERMINALS = {
    **{op: "COMP" for op in ("<", ">", "<=", ">=", "==", "!=")},
    "<<": "SHIFT", ">>": "SHIFT", "+": "ADD", "-": "ADD",
    **{op + "=": "AUGASSIGN" for op in ("+", "-", "*", "/", "%", "@", "&", "|", "^", "**", "//", "<<", ">>")},
}


class LexError(Exception):
    def __init__(self, message: str, line: int, col: int):
        super().__init__(message)
        self.line, self.col = line, col


class PythonLexer(Lexer):
    """Turns text into lark Tokens named after the grammar's terminals."""

    def __init__(self, lexer_conf) -> None:
        self.by_text: dict[str, str] = dict(_REGEX_TERMINALS)
        for terminal in lexer_conf.terminals:
            if terminal.pattern.type == "str":
                self.by_text[terminal.pattern.value] = terminal.name

    __future_interface__ = 0  # lark hands `lex` the text itself

    def lex(self, text: str) -> Iterator[Token]:
        by_text = self.by_text
        token = getattr(Token, "_future_new", Token)  # Token() without its check of deprecated keywords
        match = _LEXEME.match
        pos, line, line_start, end = 0, 1, 0, len(text)
        while pos < end:
            m = match(text, pos)
            if m is None:
                pos = _BLANKS.match(text, pos).end()
                if pos == end:
                    break  # blanks at the end
                col = pos - line_start
                ch = text[pos]
                what = "an unterminated string" if ch in "'\"" else f"unexpected character {ch!r}"
                raise LexError(what, line - 1, col)
            kind = m.lastgroup
            value = m.group(kind)
            new_pos = m.end()
            if kind == "ws":  # a backslash continuation
                line += 1
                line_start = pos = new_pos
                continue
            pos = m.start(kind)
            column = pos - line_start + 1
            if kind == "name":
                if value == "not" and (follow := _NOT_IN.match(text, new_pos)):
                    new_pos = follow.end()
                    value = text[pos:new_pos]
                    kind_name = "NOT_IN"
                elif value == "is" and (follow := _IS_NOT.match(text, new_pos)):
                    new_pos = follow.end()
                    value = text[pos:new_pos]
                    kind_name = "IS_NOT"
                else:
                    kind_name = by_text.get(value, "NAME")
            elif kind == "op":
                kind_name = by_text.get(value)
                if kind_name is None:  # e.g. '->' outside a def, unknown to this grammar
                    raise LexError(f"unexpected {value!r}", line - 1, column - 1)
            elif kind == "nl":
                kind_name = "_NEWLINE"
                if new_pos == end and value.rfind("\n") >= 0:
                    # the text's last line holds blanks or a comment: no indentation for a next statement
                    value = value[:value.rfind("\n") + 1]
            elif kind == "num":
                kind_name = "NUMBER"
            elif kind == "str":
                kind_name = "STRING"
            else:
                kind_name = "LONG_STRING"
            newlines = value.count("\n")
            if newlines:
                end_line = line + newlines
                last_nl = pos + value.rfind("\n")
                end_column = new_pos - last_nl
                yield token(kind_name, value, pos, line, column, end_line, end_column, new_pos)
                line = end_line
                line_start = last_nl + 1
            else:
                yield token(kind_name, value, pos, line, column, line, column + (new_pos - pos), new_pos)
            pos = new_pos


def string_lexemes(text: str) -> list[str]:
    """The string literals `text` is made of, each as written (prefix and quotes kept), if it holds
    nothing else but blanks and line breaks between them; else []."""
    out: list[str] = []
    pos, end = 0, len(text)
    while pos < end:
        m = _LEXEME.match(text, pos)
        if m is None:
            if _BLANKS.match(text, pos).end() == end:
                break
            return []
        kind = m.lastgroup
        if kind in ("str", "long"):
            out.append(m.group(kind))
        elif kind not in ("nl", "ws"):
            return []
        pos = m.end()
    return out


def brackets(text: str) -> Iterator[tuple[int, str]]:
    """(position, bracket) of each bracket in `text` outside its string literals (up to any character
    the lexer does not know)."""
    pos, end = 0, len(text)
    while pos < end:
        m = _LEXEME.match(text, pos)
        if m is None:
            return
        if m.lastgroup == "op" and m.group("op") in _BRACKET_CHARS:
            yield m.start("op"), m.group("op")
        pos = m.end()


_BRACKET_CHARS = frozenset("()[]{}")


def number_value(text: str):
    """A NUMBER lexeme's value (None where Python would not read it)."""
    clean = text.replace("_", "")
    lower = clean.lower()
    try:
        if lower.endswith("j"):
            return complex(clean)
        if lower.startswith(("0x", "0o", "0b")):
            return int(clean, 0)
        if any(c in lower for c in ".e"):
            return float(clean)
        return int(clean)
    except ValueError:
        return None
