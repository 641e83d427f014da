"""bounded.py: a memo whose bound holds in the size of what it keeps (issue 13)."""
from __future__ import annotations

from pypto_lens.bounded import SizedMemo, chars_of_tokens, memo_by_size
from pypto_lens.registry import cpp_chains, declarations, validate


def test_results_are_kept_until_their_weight_passes_the_bound_then_the_least_recently_used_go():
    calls = []

    @memo_by_size(10, len)
    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    assert upper("abcd") == "ABCD" and upper("abcd") == "ABCD" and calls == ["abcd"]
    upper("efgh")
    upper("abcd")  # used again: "efgh" is now the least recently used
    upper("ijk")  # 4 + 4 + 3 > 10
    assert list(upper.values) == [("abcd",), ("ijk",)] and upper.chars == 7
    upper("x" * 11)  # heavier than the bound: computed, not kept
    assert ("x" * 11,) not in upper.values and upper.chars == 7
    upper.cache_clear()
    assert not upper.values and upper.chars == 0


def test_token_tuples_weigh_their_characters():
    assert chars_of_tokens(("op", (("set", None, (("a", "::", "b"),)),))) == 2 + 3 + 1 + 4


def test_the_registry_memos_are_bounded_by_size():
    for memo in (cpp_chains.parse_statement, validate._statement_problems, declarations._interpret,
                 declarations._cached_resolver):
        assert isinstance(memo, SizedMemo) and memo.max_chars <= 400_000
