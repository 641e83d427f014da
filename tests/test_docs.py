"""The diagnostics page (docs/diagnostics.md) explains every code a diagnostic can carry and every rule id a
derivation can name, and each diagnostic's codeDescription links to its heading."""
from __future__ import annotations

import re
from pathlib import Path

from pypto_lens.presentation import docs
from pypto_lens.vocabulary import Code

ROOT = Path(__file__).resolve().parent.parent


def rule_ids() -> set[str]:
    """Every rule id the stages write into a derivation (`Derivation("C7", ...)`)."""
    found = set()
    for path in (ROOT / "analysis" / "pipeline").glob("*.py"):
        found.update(re.findall(r'Derivation\(\s*"([A-Z]+\d+)"', path.read_text(encoding="utf-8")))
    return found


def test_every_code_and_rule_id_has_a_heading():
    assert docs.page() == ROOT / "docs" / "diagnostics.md"
    headings = docs.headings()
    assert [code.value for code in Code if code.value not in headings] == []
    ids = rule_ids()
    assert {"C4", "C7", "C9", "O5", "U4", "S7"} <= ids  # the scan finds them
    assert sorted(ids - set(headings)) == []


def test_a_link_opens_the_page_at_its_heading():
    href = docs.link("InOutUseDiscipline")
    path, _, line = href.partition("#L")
    assert path == (ROOT / "docs" / "diagnostics.md").as_uri()
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8").split("\n")
    assert text[int(line) - 1] == "### InOutUseDiscipline"
    assert docs.link("NoSuchCode") is None
