-- End-to-end test of PyPTO Lens in a real Neovim, through the editor's own LSP client.
--
--   nvim --headless --clean -l tests/nvim/e2e.lua CONFIG PIPELINE EXAMPLE SCOPES
--
-- CONFIG is a snippet of docs/neovim.md (tests/nvim/init.lua or init-0.10.lua, which
-- read PYPTO_LENS_DIR), loaded as a user's init.lua would be, or README.md: then the
-- README's Neovim snippet, its /path/to/pypto-lens replaced by this repository.
-- PIPELINE is a copy of tests/nvim/pipeline.py, EXAMPLE a copy of
-- examples/05_in_param_written.py, SCOPES a copy of examples/02_jit_scopes_and_kernels.py
-- (its scope headers' code lenses). Any failed assert() makes nvim exit non-zero;
-- everything seen is printed. tests/nvim/run.sh runs this.

local config, pipeline, example, scopes = arg[1], arg[2], arg[3], arg[4]
assert(config and pipeline and example and scopes,
  "usage: nvim --headless --clean -l e2e.lua CONFIG PIPELINE EXAMPLE SCOPES")

local WAIT_MS = 20000 -- a cold start of the server (imports, registry) takes a few seconds

local function say(...)
  local parts = {}
  for i = 1, select("#", ...) do
    parts[i] = tostring((select(i, ...)))
  end
  io.stdout:write(table.concat(parts, " ") .. "\n")
  io.stdout:flush() -- in order with the errors on stderr
end

-- Client methods are called with `:` from 0.11 on, with `.` before
local NEW_API = vim.fn.has("nvim-0.11") == 1
local function notify(client, method, params)
  if NEW_API then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

local function label_text(label)
  if type(label) == "string" then
    return label
  end
  local parts = {}
  for _, part in ipairs(label) do
    parts[#parts + 1] = part.value
  end
  return table.concat(parts)
end

-- the 0-based line of the one buffer line containing `needle` (plain text)
local function line_of(bufnr, needle)
  local found
  for i, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if text:find(needle, 1, true) then
      assert(found == nil, ("%q is on more than one line"):format(needle))
      found = i - 1
    end
  end
  assert(found, ("no line contains %q"):format(needle))
  return found
end

-- the 0-based column right after `prefix` on that line
local function col_after(bufnr, line, prefix)
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
  local start = text:find(prefix, 1, true)
  assert(start, ("line %d has no %q"):format(line + 1, prefix))
  return start - 1 + #prefix
end

local function by_position(a, b)
  if a.line ~= b.line then
    return a.line < b.line
  end
  return a.col < b.col
end

local function hints_of(bufnr)
  local seen = {}
  for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = bufnr })) do
    local h = item.inlay_hint
    seen[#seen + 1] = { line = h.position.line, col = h.position.character, label = label_text(h.label), hint = h }
  end
  table.sort(seen, by_position)
  return seen
end

local function render(hints)
  local lines = {}
  for _, h in ipairs(hints) do
    lines[#lines + 1] = ("%d:%d %s"):format(h.line + 1, h.col, h.label)
  end
  return table.concat(lines, "\n")
end

local function open(path)
  vim.cmd.edit(vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.bo[bufnr].filetype == "python", "filetype is " .. vim.bo[bufnr].filetype)
  local client
  local ok = vim.wait(WAIT_MS, function()
    client = vim.lsp.get_clients({ bufnr = bufnr, name = "pypto_lens" })[1]
    return client ~= nil and client.initialized == true
  end, 50)
  assert(ok, "no initialized pypto_lens client attached to " .. path)
  return bufnr, client
end

-- wait until the hints equal `want` (a rendered list), or time out; then compare
local function expect_hints(bufnr, want, what)
  local got
  vim.wait(WAIT_MS, function()
    got = render(hints_of(bufnr))
    return got == want
  end, 50)
  say(("-- inlay hints (%s), line:col label (columns from 0)"):format(what))
  say(got)
  assert(got == want, ("inlay hints (%s) differ; expected:\n%s\nshown:\n%s"):format(what, want, got))
end

say("nvim " .. tostring(vim.version()) .. ", config " .. config)

local function read(path)
  local f = assert(io.open(path, "rb"), "cannot read " .. path)
  local text = f:read("*a")
  f:close()
  return text
end
local repo = vim.fs.dirname(vim.fs.dirname(vim.fs.dirname(vim.fn.fnamemodify(arg[0], ":p"))))

-- the snippet under "### Neovim" in the README, with its placeholder path made the repository's
local function readme_snippet()
  local section = read(config):match("\n### Neovim[^\n]*\n(.-)\n##")
  local code = section and section:match("```lua\n(.-)```")
  assert(code, "README.md has no ```lua block under its ### Neovim heading")
  local n
  code, n = code:gsub("/path/to/pypto%-lens", (repo:gsub("%%", "%%%%")))
  assert(n > 0, "the README's snippet does not name /path/to/pypto-lens")
  say("-- the README's snippet, /path/to/pypto-lens replaced")
  say(code)
  return code
end

local from_readme = vim.fs.basename(config) == "README.md"
if from_readme then
  assert(load(readme_snippet(), "=README.md"))()
else
  -- docs/neovim.md shows the config exactly as it is tested
  local doc = read(vim.fs.joinpath(repo, "docs", "neovim.md"))
  assert(doc:find("```lua\n" .. read(config) .. "```\n", 1, true),
    "docs/neovim.md does not show " .. vim.fs.basename(config) .. " as it is (in a ```lua block)")
  dofile(config)
end

--------------------------------------------------------------------------------
-- 1. tests/nvim/pipeline.py: hints, links, hover, the InParamWritten warning, settings
local bufnr, client = open(pipeline)
say(("server %s %s, client %s"):format(client.server_info and client.server_info.name or "?",
  client.server_info and client.server_info.version or "?", client.name))
assert(client.server_info and client.server_info.name == "pypto-lens", "the server is not PyPTO Lens")
assert(vim.lsp.inlay_hint.is_enabled({ bufnr = bufnr }), "the config did not enable inlay hints")
local function real(path)
  return vim.uv.fs_realpath(path) or path
end
assert(client.root_dir and real(client.root_dir) == real(vim.fs.dirname(pipeline)),
  "the root is " .. tostring(client.root_dir) .. ", not the folder with pyproject.toml")

-- What PyPTO derives for pipeline.py (see its docstring), hint by hint: the call
-- line, the text after which the argument starts, the label.
-- The labels are the default short words (`in` Input; the written ones in capitals: `OUT`
-- OutputExisting, `INOUT` InOut).
local CALLS = {
  { "y = self.scale(x, 2.0, y)", {
    { "self.scale(", "in" },
    { "self.scale(x, 2.0, ", "OUT" }, -- the first write of y (C9)
  } },
  { "y = self.scale(x, 3.0, y)", {
    { "self.scale(", "in" },
    { "self.scale(x, 3.0, ", "INOUT" }, -- y was written before (C7)
  } },
  { "y = self.bump(x, y)", {
    { "self.bump(", "in" },
    { "self.bump(x, ", "INOUT" }, -- bump loads and stores its plain acc
  } },
  -- the declaration of bump's acc: effectively InOut
  { "acc: pl.Tensor[[16, 64], pl.FP32],", { { "acc: pl.Tensor[[16, 64], pl.FP32]", "effective InOut" } } },
}
local SCALARS = { -- shown only with inlayHints.scalar = true
  { "y = self.scale(x, 2.0, y)", { { "self.scale(x, ", "scalar" } } },
  { "y = self.scale(x, 3.0, y)", { { "self.scale(x, ", "scalar" } } },
}

local function expected(groups)
  local want = {}
  for _, group in ipairs(groups) do
    for _, call in ipairs(group) do
      local line = line_of(bufnr, call[1])
      for _, h in ipairs(call[2]) do
        want[#want + 1] = { line = line, col = col_after(bufnr, line, h[1]), label = h[2] }
      end
    end
  end
  table.sort(want, by_position)
  return render(want)
end

expect_hints(bufnr, expected({ CALLS }), "pipeline.py")

-- the word of a hint links to the callee's parameter (go to definition from the hint)
local acc_decl = line_of(bufnr, "acc: pl.Tensor[[16, 64], pl.FP32],")
local bump_line = line_of(bufnr, "y = self.bump(x, y)")
for _, h in ipairs(hints_of(bufnr)) do
  if h.line == bump_line and h.label == "INOUT" then
    local part = h.hint.label[1]
    assert(part.value == "INOUT" and part.location, "the acc hint has no link: " .. vim.inspect(h.hint.label))
    assert(part.location.range.start.line == acc_decl,
      ("the acc hint links to line %d, not %d"):format(part.location.range.start.line + 1, acc_decl + 1))
  end
end

-- K on the second scale call: the hover, in the float the user reads
local call_line = line_of(bufnr, "y = self.scale(x, 3.0, y)")
vim.api.nvim_win_set_cursor(0, { call_line + 1, col_after(bufnr, call_line, "self.sc") })
-- every snippet maps K to the hover (Python's ftplugin would have K run pydoc)
local k = vim.fn.maparg("K", "n", false, true)
assert(k.buffer == 1 and k.callback, "K is not mapped to the hover in the buffer: " .. vim.inspect(k))
vim.cmd.normal("K")
local float
vim.wait(WAIT_MS, function()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then
      float = win
      return true
    end
  end
end, 50)
assert(float, "K opened no hover window")
local hover = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
say("-- hover on line " .. (call_line + 1))
say(table.concat(hover, "\n"))
vim.api.nvim_win_close(float, true)
local function hover_has(...)
  local needles = { ... }
  for _, text in ipairs(hover) do
    local all = true
    for _, needle in ipairs(needles) do
      all = all and text:find(needle, 1, true) ~= nil
    end
    if all then
      return true
    end
  end
  return false
end
assert(hover_has("scale", "call in", "run"), "the hover does not name the call")
assert(hover_has("dst", "InOut", "C7"), "the hover does not say dst is InOut by rule C7")
assert(hover_has("src", "Input", "C4"), "the hover does not say src is Input by rule C4")

-- diagnostics: one warning, InParamWritten, where bump stores into acc
local store_line = line_of(bufnr, "acc = pl.store(pl.add(a, t), [0, 0], acc)")
local warnings
vim.wait(WAIT_MS, function()
  warnings = vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.WARN })
  return #warnings > 0
end, 50)
say("-- diagnostics (pipeline.py), line:col severity code: message (columns from 0)")
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  say(("%d:%d %s %s: %s"):format(d.lnum + 1, d.col, vim.diagnostic.severity[d.severity], d.code, d.message))
end
assert(#warnings == 1, ("expected one warning, got %d"):format(#warnings))
local w = warnings[1]
assert(w.code == "InParamWritten" and w.source == "pypto-lens", "the warning is not PyPTO Lens' InParamWritten")
assert(w.lnum == store_line and w.col == col_after(bufnr, store_line, "acc = pl.store(pl.add(a, t), [0, 0], "),
  ("InParamWritten at %d:%d, not at the written argument"):format(w.lnum + 1, w.col))
assert(w.message:find("'acc'", 1, true) and w.message:find("pl.InOut", 1, true), "unexpected message: " .. w.message)
assert(#vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR }) == 0, "errors in pipeline.py")

-- settings: the client answers the server's workspace/configuration from `settings`;
-- switching inlayHints.scalar on there adds the Scalar hints
client.settings.pyptoLens = client.settings.pyptoLens or {}
client.settings.pyptoLens.inlayHints = client.settings.pyptoLens.inlayHints or {}
client.settings.pyptoLens.inlayHints.scalar = true
notify(client, "workspace/didChangeConfiguration", { settings = client.settings })
expect_hints(bufnr, expected({ CALLS, SCALARS }), "pipeline.py, inlayHints.scalar = true")
client.settings.pyptoLens.inlayHints.scalar = false
notify(client, "workspace/didChangeConfiguration", { settings = client.settings })
expect_hints(bufnr, expected({ CALLS }), "pipeline.py, inlayHints.scalar = false again")

-- the quick fix on the warning (the code action menu, vim.ui.select): pl.InOut, what the
-- InCore upgrade makes acc (the only fix offered); choosing it edits the declaration, and the warning goes away
vim.api.nvim_win_set_cursor(0, { store_line + 1, w.col })
local titles, choose
vim.ui.select = function(items, opts, on_choice)
  titles = vim.tbl_map(opts.format_item or tostring, items)
  choose = function()
    on_choice(items[1], 1)
  end
end
vim.lsp.buf.code_action()
vim.wait(WAIT_MS, function()
  return titles ~= nil
end, 50)
assert(titles, "no code action menu on the InParamWritten warning")
say("-- code actions on line " .. (store_line + 1))
say(table.concat(titles, "\n"))
assert(titles[1]:find("Declare 'acc' as pl.InOut[...]", 1, true), "the first action is not pl.InOut: " .. titles[1])
assert(#titles == 1, "a second, wrong fix is offered: " .. table.concat(titles, " | "))
choose()
local fixed = vim.api.nvim_buf_get_lines(bufnr, acc_decl, acc_decl + 1, false)[1]
say("-- after the fix, line " .. (acc_decl + 1) .. ": " .. fixed)
assert(vim.trim(fixed) == "acc: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],", "the fix did not edit the declaration")
local left = vim.wait(WAIT_MS, function()
  return #vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.WARN }) == 0
end, 50)
assert(left, "the InParamWritten warning stayed after the fix")
local after_fix = { CALLS[1], CALLS[2], CALLS[3] } -- acc is declared InOut now: no "effective" hint
expect_hints(bufnr, expected({ after_fix }), "pipeline.py after the fix")

--------------------------------------------------------------------------------
-- 2. examples/05_in_param_written.py: its `# expect:` and `expect-warning:` comments
-- (what PyPTO derives) against what the editor shows
local ex = open(example)
local want_dirs, want_warn = {}, {}
for i, text in ipairs(vim.api.nvim_buf_get_lines(ex, 0, -1, false)) do
  local dirs = text:match("#%s*expect:%s*([%w_=, ]+)")
  if dirs and vim.trim(dirs) ~= "none" then
    local list = {}
    for item in dirs:gmatch("[^,%s]+") do
      list[#list + 1] = item:match("=(.+)$") or item
    end
    want_dirs[i - 1] = table.concat(list, ", ")
  end
  if text:find("expect-warning: InParamWritten", 1, true) then
    want_warn[#want_warn + 1] = i - 1
  end
end
assert(next(want_dirs) and #want_warn > 0, "the example has no expectations")

local got_dirs
-- the short words' directions (a hint writes the written ones in capitals, a scope's lens in lower case)
local WORDS = { ["in"] = "Input", out = "OutputExisting", inout = "InOut", nodep = "NoDep", new = "Output",
  scalar = "Scalar", OUT = "OutputExisting", INOUT = "InOut", NODEP = "NoDep", NEW = "Output" }
local function directions()
  local per_line = {}
  for _, h in ipairs(hints_of(ex)) do
    if h.hint.kind == 2 then -- InlayHintKind.Parameter (not the "effective ..." signature hints)
      local dir = WORDS[h.label]
      assert(dir, "not a direction's word: " .. h.label)
      if dir ~= "Scalar" then
        per_line[h.line] = per_line[h.line] and (per_line[h.line] .. ", " .. dir) or dir
      end
    end
  end
  return per_line
end
vim.wait(WAIT_MS, function()
  got_dirs = directions()
  return vim.deep_equal(got_dirs, want_dirs)
end, 50)
say("-- directions (05_in_param_written.py), line: shown | expected")
local lines = vim.tbl_keys(vim.tbl_extend("force", {}, want_dirs, got_dirs))
table.sort(lines)
for _, l in ipairs(lines) do
  say(("%d: %s | %s"):format(l + 1, got_dirs[l] or "-", want_dirs[l] or "-"))
end
assert(vim.deep_equal(got_dirs, want_dirs), "the example's directions differ from its expect comments")

local got_warn
vim.wait(WAIT_MS, function()
  got_warn = {}
  for _, d in ipairs(vim.diagnostic.get(ex, { severity = vim.diagnostic.severity.WARN })) do
    if d.code == "InParamWritten" then
      got_warn[#got_warn + 1] = d.lnum
    end
  end
  table.sort(got_warn)
  return vim.deep_equal(got_warn, want_warn)
end, 50)
local function plus1(list)
  return table.concat(vim.tbl_map(function(l) return tostring(l + 1) end, list), ", ")
end
say(("-- InParamWritten (05_in_param_written.py) on lines %s, expected %s"):format(plus1(got_warn), plus1(want_warn)))
assert(vim.deep_equal(got_warn, want_warn), "the example's InParamWritten warnings differ from its comments")

--------------------------------------------------------------------------------
-- 3. examples/02_jit_scopes_and_kernels.py: each scope header's code lens (the config refreshes
-- them) names every capture with the direction its `# expect:` comment gives
local sc = open(scopes)
local want_lens = {}
for i, text in ipairs(vim.api.nvim_buf_get_lines(sc, 0, -1, false)) do
  local named = text:match("^%s*with pl%..-#%s*expect:%s*(.+)$") or text:match("^%s*for .- in pl%.spmd.-#%s*expect:%s*(.+)$")
  if named then
    local map = {}
    for name, dir in named:gmatch("([%w_]+)=(%w+)") do
      map[name] = dir
    end
    want_lens[i - 1] = map
  end
end
assert(next(want_lens), "examples/02 has no scope headers with expectations")
local function lens_directions()
  local out = {}
  for _, lens in ipairs(vim.lsp.codelens.get(sc)) do
    if not (lens.command and lens.command.command == "pyptoLens.explainAt") then
      goto continue -- (the task graph's counts are lenses too)
    end
    local map = {}
    for group in lens.command.title:gmatch("[^·]+") do
      local word, names = vim.trim(group):match("^(%S+) (.+)$")
      for name in (names or ""):gmatch("[%w_]+") do
        map[name] = WORDS[word]
      end
    end
    out[lens.range.start.line] = map
    ::continue::
  end
  return out
end
local got_lens
vim.wait(WAIT_MS, function()
  got_lens = lens_directions()
  return vim.deep_equal(got_lens, want_lens)
end, 50)
say("-- code lenses (02_jit_scopes_and_kernels.py)")
for _, lens in ipairs(vim.lsp.codelens.get(sc)) do
  say(("%d: %s"):format(lens.range.start.line + 1, lens.command and lens.command.title or "?"))
end
assert(vim.deep_equal(got_lens, want_lens), "the scopes' lenses differ from their expect comments: "
  .. vim.inspect(got_lens) .. " vs " .. vim.inspect(want_lens))

--------------------------------------------------------------------------------
for _, c in ipairs(vim.lsp.get_clients({ name = "pypto_lens" })) do
  if NEW_API then c:stop() else c.stop() end
end
vim.wait(5000, function()
  return #vim.lsp.get_clients({ name = "pypto_lens" }) == 0
end, 50)
say("PASS " .. config)
