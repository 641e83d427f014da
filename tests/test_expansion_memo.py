"""An edit's N1 keeps what the last one made of every statement it did not change (issue 41):
the lowering of an edited function is made of the last one's objects where they are the same
(ir/rebase.py), and N1 takes a kept statement's expansions as they were when what it read is the
same (pipeline/expansion_memo.py). Whatever the edits, the result equals a fresh analysis's.
"""
from __future__ import annotations

import collections
from pathlib import Path
from typing import Optional

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pypto_lens.ir import nodes as ir
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.moved_lines import _Compare, same_moved
from pypto_lens.workspace.workspace import Workspace, path_to_uri

HELPERS = '''\
import pypto.language as pl

N = 256


@pl.jit.inline
def head_rows(n: pl.Scalar[pl.INDEX], src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, n), [0], dst)
    return dst


@pl.jit.inline
def scale(src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    for k in pl.range(1):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale"):
            t = pl.load(src, [0], [N])
            dst = pl.store(pl.add(t, t), [0], dst)
    return dst


@pl.jit.inline
def pick(n: pl.Scalar[pl.INDEX], src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    if n > 2:
        dst = scale(src, dst)
    else:
        dst = scale(dst, dst)
    return dst
'''

# the statements the edits put in, take out or change, in the body and in the loop of a caller
POOL = [
    "out = head_rows(pl.read(lens, [0]), a, out)",
    "out = head_rows(pl.read(lens, [2]), a, out)",  # (another N4 temporary before the same call)
    "head_rows(4, b, out)",
    "b = scale(a, b)",
    "b = scale(out, b)",  # (the same b, another expansion: the renames after it are others)
    "out = scale(b, out)",
    "t = pl.create_tensor([N], dtype=pl.FP32)",
    "t = scale(a, t)",
    "probe = 0",
    "probe = head_rows(pl.read(lens, [1]), b, a)",
    "a = scale(out, a)",
    "out = pick(pl.read(lens, [3]), b, out)",
    "b = pick(4, a, b)",
    "scale(a, b)",  # (rebinds b in the helper: the uses after it read its last version)
    "pick(4, out, b)",  # (its if's result for b exists only if something after it reads b)
]


def caller(top: list, loop: list, name: str = "main") -> str:
    body = "".join(f"    {s}\n" for s in top)
    inner = "".join(f"        {s}\n" for s in loop) or "        pass\n"
    return ("import pypto.language as pl\nfrom rows import N, head_rows, pick, scale\n\n\n@pl.jit\n"
            f"def {name}(lens: pl.Tensor[[4], pl.INDEX], a: pl.Tensor[[N], pl.FP32], b: pl.Tensor[[N], pl.FP32],\n"
            f"         out: pl.Out[pl.Tensor[[N], pl.FP32]]):\n{body}    for i in pl.range(4):\n{inner}"
            "    return out\n")


FIRST = ([POOL[0]] + POOL[2:4] + POOL[5:6], POOL[3:4] + POOL[5:7])


def view(analysis) -> tuple:
    """All a document's results, as text (hints, diagnostics, signatures, operators, task graphs,
    lent headers)."""
    return tuple(sorted(repr(x) for x in getattr(analysis, name)) for name in
                 ("calls", "diagnostics", "signatures", "operators", "graphs", "optional_diagnostics", "lent"))


def fresh_workspace(tmp_path: Path, files: dict, registry=None) -> Workspace:
    """A new workspace with `files` (name -> text) open in it, nothing analysed yet."""
    texts = OpenTexts()
    for name, text in files.items():
        texts.open(path_to_uri(tmp_path / name), text, 1)
    return Workspace([tmp_path], registry=(lambda: registry) if registry is not None else None,
                     open_documents=texts)


def fresh_view(tmp_path: Path, files: dict, uri: str) -> tuple:
    return view(fresh_workspace(tmp_path, files).analysis(uri))


def _normalised(workspace: Workspace, uri: str, name: str = "main") -> Optional[list]:
    """The function's body as N1 left it for the document's text now (kept for an open document);
    None when no chain ran for this text (its result was the last one's, its lines moved)."""
    found = [(key, n) for made_from, (key, _, n) in workspace.caches.normalised.items() if made_from[0] == uri]
    key, normalised = found[0]
    if _lowering(workspace, name).digest not in key[1]:
        return None
    return next(fn.body for fn in normalised.fns if fn.key == name)


def same_expansions(a: list, b: list) -> bool:
    """Two N1 outputs, field for field (frames, marks, copies of argument expressions and all),
    their variables one to one."""
    return _Compare(tuple(range(10_000)), set()).same(a, b)


def _memo_counts(workspace: Workspace) -> tuple[int, int]:
    memos = [m for program in workspace.caches.expansions.values() for m in program.functions.values()]
    return sum(m.hits for m in memos), sum(m.made for m in memos)


@st.composite
def caller_edits(draw):
    """Edits of the caller's statements: (block, what, where, which statement of POOL)."""
    return draw(st.lists(st.tuples(st.sampled_from(("top", "loop")), st.sampled_from(("insert", "delete", "replace")),
                                   st.integers(0, 6), st.integers(0, len(POOL) - 1)), min_size=1, max_size=8))


def _edited(blocks: dict, edit) -> None:
    block, what, where, which = edit
    stmts = blocks[block]
    k = where % (len(stmts) + (what == "insert")) if stmts or what == "insert" else None
    if k is None:
        return
    if what == "insert":
        stmts.insert(k, POOL[which])
    elif what == "delete":
        del stmts[k]
    else:
        stmts[k] = POOL[which]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(caller_edits(), st.booleans())
def test_an_edited_callers_expansions_equal_a_fresh_analysis(tmp_path: Path, sequence, hints_first):
    (tmp_path / "rows.py").write_text(HELPERS)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    uri = path_to_uri(tmp_path / "main.py")
    blocks = {"top": list(FIRST[0]), "loop": list(FIRST[1])}
    texts.open(uri, caller(blocks["top"], blocks["loop"]), 1)
    workspace.analysis(uri)
    for version, edit in enumerate(sequence, start=2):
        _edited(blocks, edit)
        text = caller(blocks["top"], blocks["loop"])
        texts.change(uri, text, version)
        if hints_first:
            workspace.analysis(uri, hints_only=True)
        analysis = workspace.analysis(uri)
        fresh = fresh_workspace(tmp_path, {"main.py": text})
        assert view(analysis) == view(fresh.analysis(uri)), f"after {sequence[:version - 1]}"
        made = _normalised(workspace, uri)
        if made is not None:
            assert same_expansions(_normalised(fresh, uri), made), f"N1 after {sequence[:version - 1]}"


def test_an_edit_keeps_the_expansions_of_the_statements_it_did_not_change(tmp_path: Path):
    (tmp_path / "rows.py").write_text(HELPERS)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    uri = path_to_uri(tmp_path / "main.py")
    top, loop = list(FIRST[0]), list(FIRST[1])
    texts.open(uri, caller(top, loop), 1)
    workspace.analysis(uri)
    # (the body's 4 statements, the N4 temporary of pl.read, the loop with its 3, the return)
    assert _memo_counts(workspace) == (0, 10), "a first analysis makes every statement of the function"
    loop[1] = "out = scale(a, out)"  # (the same lines: every other statement's spans are the same)
    texts.change(uri, caller(top, loop), 2)
    analysis = workspace.analysis(uri)
    hits, made = _memo_counts(workspace)
    # kept: the 4 expansions of the body and the loop's other one; made again: the changed one, the
    # loop around it, and what expands nothing (the temporary, pl.create_tensor, the return)
    assert (hits, made) == (5, 5)
    assert view(analysis) == fresh_view(tmp_path, {"main.py": caller(top, loop)}, uri)


def test_a_statement_after_a_changed_rename_is_made_again(tmp_path: Path):
    """`b = scale(a, b)` gives the rest of the function scale's last version of b (a rename): taken
    out, the later uses of b read the parameter again, which the kept statements' reads show."""
    (tmp_path / "rows.py").write_text(HELPERS)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    uri = path_to_uri(tmp_path / "main.py")
    top = ["b = scale(a, b)", "probe = 0", "out = scale(b, out)"]
    texts.open(uri, caller(top, ["pass"]), 1)
    workspace.analysis(uri)
    top[1] = "probe = 1"
    texts.change(uri, caller(top, ["pass"]), 2)
    workspace.analysis(uri)
    top[0] = "probe0 = 0"
    texts.change(uri, caller(top, ["pass"]), 3)
    assert view(workspace.analysis(uri)) == fresh_view(tmp_path, {"main.py": caller(top, ["pass"])}, uri)


def test_a_kept_expansion_reads_the_new_renames_of_a_changed_statement_before_it(tmp_path: Path):
    """`b = scale(a, b)` made `b = scale(out, b)`: the same b after it, but another expansion, whose
    last version of b the kept `out = scale(b, out)` passes now (its frame's arguments too)."""
    (tmp_path / "rows.py").write_text(HELPERS)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    uri = path_to_uri(tmp_path / "main.py")
    top = ["b = scale(a, b)", "out = scale(b, out)", "out = pick(pl.read(lens, [3]), b, out)", "pick(4, out, a)"]
    texts.open(uri, caller(top, ["pass"]), 1)
    workspace.analysis(uri)
    for version, first in enumerate(["b = scale(out, b)", "b = pick(4, a, b)", "b = scale(a, b)", "scale(a, b)",
                                      "scale(out, b)", "pick(4, out, b)"], start=2):
        top[0] = first
        text = caller(top, ["pass"])
        texts.change(uri, text, version)
        analysis = workspace.analysis(uri)
        assert version == 4 or _memo_counts(workspace)[0] > 0, "the statements after the changed one are kept"
        fresh = fresh_workspace(tmp_path, {"main.py": text})
        assert view(analysis) == view(fresh.analysis(uri))
        made = _normalised(workspace, uri)
        if version == 4:  # (the first text again: its result was kept whole, no chain runs)
            assert made is None
            continue
        assert same_expansions(_normalised(fresh, uri), made), f"N1 after {first}"


def test_a_helper_edited_while_two_callers_expand_it_with_other_bindings(tmp_path: Path):
    """Both callers keep their expansions of the helper until its text changes: then each expands
    the new text (a kept statement asks again which helper its calls expand, and it is another)."""
    (tmp_path / "rows.py").write_text(HELPERS)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    files = {"main.py": caller(["out = head_rows(pl.read(lens, [0]), a, out)", "b = scale(a, b)"], ["pass"]),
             "other.py": caller(["head_rows(4, b, out)", "a = scale(out, a)"], ["out = scale(b, out)"], "other"),
             "rows.py": HELPERS}
    uris = {name: path_to_uri(tmp_path / name) for name in files}
    for name, text in files.items():
        texts.open(uris[name], text, 1)
    for name in ("main.py", "other.py"):
        workspace.analysis(uris[name])
    edits = [HELPERS.replace("pl.store(pl.mul(t, n), [0], dst)", "pl.store(pl.mul(t, n), [0], src)"),
             HELPERS.replace("dst = pl.store(pl.add(t, t), [0], dst)", "src = pl.store(pl.add(t, t), [0], src)"),
             HELPERS]
    for version, helpers in enumerate(edits, start=2):
        files["rows.py"] = helpers
        texts.change(uris["rows.py"], helpers, version)
        for name in ("main.py", "other.py"):
            assert view(workspace.analysis(uris[name])) == fresh_view(tmp_path, files, uris[name]), \
                f"{name} after helper edit {version - 1}"
        # and an edit of a caller after it: its kept statements are asked about the new helper
        files["main.py"] = files["main.py"].replace("    return out", f"    probe{version} = 0\n    return out")
        texts.change(uris["main.py"], files["main.py"], version)
        assert view(workspace.analysis(uris["main.py"])) == fresh_view(tmp_path, files, uris["main.py"])


def _lowering(workspace: Workspace, name: str) -> ir.Function:
    held = workspace.caches._held
    keys = [key for by_cache in held.values() for key in by_cache["lowered"]]
    found = [workspace.caches.lowered.peek(key) for key in keys]
    return next(f for f in found if f is not None and f.name == name)


def test_a_new_lowering_is_the_fresh_one_made_of_the_last_ones_objects(tmp_path: Path):
    (tmp_path / "rows.py").write_text(HELPERS)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    uri = path_to_uri(tmp_path / "main.py")
    top, loop = list(FIRST[0]), list(FIRST[1])
    texts.open(uri, caller(top, loop), 1)
    workspace.analysis(uri)
    before = _lowering(workspace, "main")
    loop[0] = "b = scale(out, b)"
    text = caller(top, loop)
    texts.change(uri, text, 2)
    workspace.analysis(uri)
    after = _lowering(workspace, "main")
    fresh = fresh_workspace(tmp_path, {"main.py": text})
    fresh.analysis(uri)
    lines = tuple(range(len(text.split("\n")) + 1))
    assert same_moved(_lowering(fresh, "main"), after, lines), "field for field the fresh lowering"
    old_loop = next(st for st in before.body if isinstance(st, ir.Loop))
    new_loop = next(st for st in after.body if isinstance(st, ir.Loop))
    assert new_loop is not old_loop and new_loop.body[1:] == old_loop.body[1:]
    assert all(a is b for a, b in zip(new_loop.body[1:], old_loop.body[1:])), "the loop's other statements"
    assert new_loop.body[0] is not old_loop.body[0]
    outside = [st for st in after.body if st is not new_loop]
    assert all(any(st is old for old in before.body) for st in outside), "the statements around the loop"


def test_what_is_kept_is_of_the_functions_and_programs_the_text_has_now(tmp_path: Path):
    """A function being renamed is a new name at every keystroke: the memos of the old names go."""
    (tmp_path / "rows.py").write_text(HELPERS)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    uri = path_to_uri(tmp_path / "main.py")
    for version, name in enumerate(["m", "ma", "mai", "main", "main_"], start=1):
        texts.change(uri, caller(list(FIRST[0]), list(FIRST[1]), name), version)
        workspace.analysis(uri)
        kept = [key for program in workspace.caches.expansions.values() for key in program.functions]
        assert kept == [name], f"after renaming to {name}"
    texts.close(uri)
    workspace.forget(uri)
    assert not workspace.caches.expansions


def _scope_keys(workspace: Workspace, uri: str) -> list:
    """The keys the document's last chain asked its scopes' answers by (its cached result's)."""
    key = next(origin[0] for made_from, origin in workspace.caches.origins.items() if made_from[0] == uri)
    return collections.Counter(workspace.caches.programs.peek(key)[2])  # (keys equal by their parts)


def test_a_kept_scope_key_is_made_again_where_what_it_read_changed(tmp_path: Path):
    """A kept statement's scope is the same body object after the edit, but its key reads the types
    of its variables and its callees' directions: a dtype changed before it, or a kernel's direction,
    gives it the key a fresh analysis gives it."""
    from pypto_lens.registry.default import default_registry
    registry = default_registry()
    kernel = ('\n\n@pl.jit.incore\ndef fill(dst: pl.Out[pl.Tensor[[N], pl.FP32]]):\n'
              '    dst = pl.store(pl.full([N], 0.0, dtype=pl.FP32), [0], dst)\n    return dst\n')
    helpers = HELPERS + kernel.replace("@pl.jit.incore", "@pl.jit.inline").replace("def fill", "def refill") \
        .replace("    dst = pl.store", "    with pl.at(level=pl.Level.CORE_GROUP):\n        dst = fill(dst)\n    dst = pl.store")
    (tmp_path / "rows.py").write_text(helpers + kernel)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], registry=lambda: registry, open_documents=texts)
    uri = path_to_uri(tmp_path / "main.py")
    top = ["t = pl.create_tensor([N], dtype=pl.FP32)", "t = scale(a, t)", "out = refill(out)"]
    text = caller(top, ["pass"]).replace("import N, head_rows", "import N, refill, head_rows")
    texts.open(uri, text, 1)
    workspace.analysis(uri)
    text = text.replace("dtype=pl.FP32)", "dtype=pl.FP16)")  # (t's type, the same lines)
    texts.change(uri, text, 2)
    workspace.analysis(uri)
    fresh = fresh_workspace(tmp_path, {"main.py": text}, registry)
    fresh.analysis(uri)
    assert _scope_keys(workspace, uri) == _scope_keys(fresh, uri), "after t's dtype changed"
    rows = path_to_uri(tmp_path / "rows.py")
    texts.open(rows, helpers + kernel.replace("pl.Out[", "pl.InOut["), 1)  # (the kernel's direction)
    workspace.analysis(uri)
    fresh = fresh_workspace(tmp_path, {"main.py": text, "rows.py": helpers + kernel.replace("pl.Out[", "pl.InOut[")},
                            registry)
    fresh.analysis(uri)
    assert _scope_keys(workspace, uri) == _scope_keys(fresh, uri), "after the kernel's direction changed"
