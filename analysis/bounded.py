"""A memo bounded by the size of what it keeps, not by its number of entries (issue 13).

`functools.lru_cache(maxsize=N)` bounds entries: when each entry grows with its key (a
REGISTER_OP statement's parse weighs about 24 bytes per character of the statement, 12.8 KB for
the median one), N entries can weigh anything, and an editing session makes a new key per
keystroke. Here every entry weighs its key's characters (`weigh`), and the least recently used
go first once the total passes `max_chars`; a key heavier than the bound is computed, not kept.
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Callable


class SizedMemo:
    """`function`'s results by their positional arguments, at most `max_chars` of weight in all."""

    def __init__(self, function: Callable, max_chars: int, weigh: Callable[..., int]):
        functools.update_wrapper(self, function)
        self.function, self.max_chars, self.weigh = function, max_chars, weigh
        self.values: OrderedDict = OrderedDict()
        self.weights: dict = {}
        self.chars = 0
        self.lock = threading.Lock()  # the worker thread and the event loop may both ask

    def __call__(self, *args):
        with self.lock:
            if args in self.values:
                self.values.move_to_end(args)
                return self.values[args]
        value = self.function(*args)
        weight = max(1, self.weigh(*args))
        if weight > self.max_chars:
            return value
        with self.lock:
            if args not in self.values:
                self.values[args] = value
                self.weights[args] = weight
                self.chars += weight
                while self.chars > self.max_chars:
                    old, _ = self.values.popitem(last=False)
                    self.chars -= self.weights.pop(old)
        return value

    def cache_clear(self) -> None:
        with self.lock:
            self.values.clear()
            self.weights.clear()
            self.chars = 0


def memo_by_size(max_chars: int, weigh: Callable[..., int]) -> Callable[[Callable], SizedMemo]:
    """Decorator: `@memo_by_size(400_000, lambda text, *_: len(text))`."""
    return lambda function: SizedMemo(function, max_chars, weigh)


def chars_of_tokens(tokens) -> int:
    """The weight of a (nested) tuple of token strings: their characters."""
    if isinstance(tokens, str):
        return len(tokens)
    if isinstance(tokens, tuple):
        return sum(chars_of_tokens(t) for t in tokens)
    return 1
