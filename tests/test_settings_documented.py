"""Every setting the server reads is declared in the VS Code extension's package.json with the same
default, and named in the README's and docs/vscode.md's settings tables; the hazard settings are one
per group of HAZARD_CODES."""
from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from pathlib import Path

from pypto_lens.presentation.graph_view import HAZARD_SETTINGS
from pypto_lens.server.settings import CHOICES, Settings

ROOT = Path(__file__).resolve().parent.parent


def server_settings() -> dict[str, object]:
    """`group.name` -> default, for every setting of the server."""
    defaults = Settings()
    out = {}
    for group in fields(defaults):
        value = getattr(defaults, group.name)
        if is_dataclass(value):
            for f in fields(value):
                out[f"{group.name}.{f.name}"] = getattr(value, f.name)
    return out


def test_the_package_declares_every_server_setting_with_its_default():
    properties = json.loads((ROOT / "vscode-extension" / "package.json").read_text(encoding="utf-8"))[
        "contributes"]["configuration"]["properties"]
    ours = server_settings()
    groups = {name.split(".")[0] for name in ours}
    declared = {name[len("pyptoLens."):]: p for name, p in properties.items() if name.split(".")[1] in groups}
    assert sorted(declared) == sorted(ours)
    for name, default in ours.items():
        assert declared[name]["default"] == default, name
        if isinstance(default, bool):
            assert declared[name]["type"] == "boolean", name
        else:  # a choice: the same values in the package and the server
            assert declared[name]["type"] == "string" and declared[name]["enum"] == list(CHOICES[name.split(".")[1]]), name


def test_the_settings_tables_name_every_server_setting():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    vscode = (ROOT / "docs" / "vscode.md").read_text(encoding="utf-8")
    for name, default in server_settings().items():
        shown = str(default).lower() if isinstance(default, bool) else default
        row = f"| `{name}` | `{shown}` |"
        assert row in readme, f"README.md: {row}"
        assert f"| `pyptoLens.{name}` | `{shown}` |" in vscode, f"docs/vscode.md: {name}"


def test_one_hazard_setting_per_group_of_codes():
    assert sorted(name for name in server_settings() if name.startswith("hazards.")
                  and name != "hazards.information") == HAZARD_SETTINGS
