"""Inlay hint labels: the direction of an argument (H5), and a parameter's effective direction."""
from __future__ import annotations

from ..workspace.results import ArgHint, SignatureChange


def label(hint: ArgHint) -> str:
    """H5: `dst: OutputExisting`, or `dst (buf): OutputExisting` when the argument's name differs."""
    if hint.arg and hint.arg != hint.param:
        return f"{hint.param} ({hint.arg}): {hint.direction.value}"
    return f"{hint.param}: {hint.direction.value}"


def signature_label(change: SignatureChange) -> str:
    """After a parameter whose effective direction differs from its declaration (D6)."""
    return f"effective {change.effective}"
