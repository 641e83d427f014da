"""A dict that forgets what was not used for longest: the bound of every content-keyed cache."""
from __future__ import annotations

from collections import OrderedDict


class LRU(OrderedDict):
    """A dict that forgets its least recently used entries beyond `size`."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)

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
