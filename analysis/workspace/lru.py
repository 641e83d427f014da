"""A dict that forgets what was not used for longest: the bound of every content-keyed cache.

Each cache is bounded by the size of what it holds, not by its count of entries: an entry weighs
what it was made from (the characters of the source text behind it, an honest proxy for the
bytes of the trees and results made from that text), and the least recently used entries go
once the weights add up to more than the bound. A count bound alone let a cache of 20,000
parses keep every past version of an 870-line function being edited (issue 13).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Optional


class LRU(OrderedDict):
    """A dict that forgets its least recently used entries beyond `size` entries or `weight` in
    total (each entry's weight is `weigh(key, value)`, 1 by default)."""

    def __init__(self, size: int, weight: Optional[int] = None,
                 weigh: Optional[Callable[[object, object], int]] = None):
        super().__init__()
        self.size = size
        self.weight = weight
        self.weigh = weigh
        self.total = 0  # the weights of the entries held
        self._weights: dict = {}

    def __setitem__(self, key, value) -> None:
        if key in self:
            self.total -= self._weights.pop(key, 0)
        super().__setitem__(key, value)
        self.move_to_end(key)
        if self.weigh is not None:
            w = max(1, int(self.weigh(key, value)))
            self._weights[key] = w
            self.total += w
        while len(self) > 1 and (len(self) > self.size or (self.weight is not None and self.total > self.weight)):
            old, _ = self.popitem(last=False)
            self.total -= self._weights.pop(old, 0)

    def __delitem__(self, key) -> None:
        super().__delitem__(key)
        self.total -= self._weights.pop(key, 0)

    def pop(self, key, *default):
        if key in self:
            self.total -= self._weights.pop(key, 0)
        return super().pop(key, *default)

    def clear(self) -> None:
        super().clear()
        self._weights.clear()
        self.total = 0

    def get(self, key, default=None):
        if key in self:
            self.move_to_end(key)
            return super().__getitem__(key)
        return default

    def get_or(self, key, make):
        value = self.get(key, _MISSING)
        if value is _MISSING:
            value = self[key] = make()
        return value


_MISSING = object()
