"""The generator of the bundled DSL table (`analysis/registry/data/dsl_ops.json`): which registry op
each PyPTO DSL function emits. A tool, not part of the installed package: nothing reads it at run time.

    .venv/bin/python tools/gen_dsl.py PYPTO_CHECKOUT [-o OUT.json] [--commit SHA]

Modules: `guards` (guard formulas and kind tests), `values` (abstract values and paths), `sources`
(the PyPTO source tree, read with `ast`), `interp` (the abstract interpreter), `generate` (the DSL
surface, one entry per function, the table and its JSON form).

The PyPTO sources are read with `ast` only, never imported. Every public
function reachable as `pl.<name>`, `pl.<submodule>.<name>`, `pld.<name>` or
`pld.<submodule>.<name>` is run through a small abstract interpreter that
follows the wrapper into the `pypto.ir.op` builders until it reaches
`create_op_call("<op>", [args], {kwargs}, span)` (or `Call(get_op(...))`).
The interpreter forks at branches whose condition tests a DSL parameter
(`isinstance(lhs, Tile)`, `rhs_expr.type` being a `ScalarType`, `x is None`,
`mode == "hard"`, ...) and records the test as the path's guard; branches it
cannot relate to a parameter are explored without a guard; paths that raise
are dropped. Values remember which DSL parameters flow into them, so each op
argument slot and each op kwarg is attributed to the DSL parameters it is
built from (through normalisation helpers, list building, `.unwrap()`...).

Schema (format 1), keys are fixed, everything else is data:

    {
      "format": 1,
      "pypto": {"commit": "<sha or null>"},
      "kinds": "TLSCIFNQO",
      "functions": {
        "<python qualname>": {
          "paths": ["pl.tile.store", "pl.store"],   # canonical first, then aliases
          "ir_paths": ["pl.tile.mrgsort_format1"],  # only when some exist: reached
                                                    # through the parser's fallback
                                                    # to IR builders (printed IR)
          "file": "python/pypto/language/op/tile_ops.py",
          "params": [[name, kind, default], ...],   # kind: o/p/k/v/w (pos-only,
                                                    # pos-or-kw, kw-only, *args,
                                                    # **kwargs); default: source
                                                    # text or null (required)
          "ops": ["tile.store"],                    # every op it may emit
          "dispatch": ["fixed"],                    # fixed | type | scalar |
                                                    # optional | value
          "mapping": "known",                       # known | partial | unknown | none
          "nothing": "marker",                      # only when it emits no op:
                                                    # construct | marker | helper
          "cases": [                                # one per distinct outcome
            {"when": GUARD,                         # omitted: always
             "emit": [{"op": "tile.store",
                       "args": [["tile"], ["offsets"], ["output_tensor"]],
                       "open": true,                # omitted unless more args
                                                    # of unknown count follow
                       "kw": {"atomic": ["atomic"]}}],
             "ret": 0}                              # emission returned; omitted
          ],                                        # when the case emits nothing
          "notes": ["..."]                          # only when precision was given up
        }
      }
    }

`args[i]` lists the DSL parameters whose values reach op argument i (empty:
a constant or a value built inside the wrapper); `args` is null when the
argument list could not be followed. A kwarg maps to the parameters feeding
it, or to `["=<text>"]` for a constant the wrapper supplies; a constant the
wrapper passes under the name of one of its own parameters (`{"mode":
"soft"}` once `mode == "hard"` failed, `high_precision=True` when asked) is
attributed to that parameter. Parameters reaching `*args`/`**kwargs` of a
builder make the mapping "partial".

GUARD is a formula over DSL parameters: `true`, `false`, `null` (unknown),
`["kind", p, yes, maybe]` (p's kind letter is in `yes`: true, in `maybe`:
unknown, else false), `["eq", p, text]`, `["in", p, [text, ...]]`,
`["truthy", p]`, `["not", g]`, `["and", g...]`, `["or", g...]`. Kind
letters are listed in `dsl.KIND_LETTERS`; `dsl.eval_guard` evaluates them
(`pypto_lens.registry.dsl`, which reads the table).
A function with a single case has no guard (its validation is not kept);
otherwise guards are simplified where some case applies, so kinds for which
every path raises may satisfy any case's guard.
"""
