"""A sub-package: its kernels are re-exported with a relative import."""

from .activation import clamp_low

__all__ = ["clamp_low"]
