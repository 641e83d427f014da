-- PyPTO Lens in Neovim 0.11 or newer. docs/neovim.md shows this file;
-- `make e2e-nvim` tests it as it is.
local lens = vim.env.PYPTO_LENS_DIR or vim.fs.normalize("~/pypto-lens") -- your clone, after `make demo`

vim.lsp.config("pypto_lens", {
  cmd = { lens .. "/.venv/bin/python", "-I", "-m", "pypto_lens" },  -- -I: nothing of your folder on sys.path
  filetypes = { "python" },
  root_markers = { "pyproject.toml", ".git" },
  settings = { -- every setting and its default: docs/neovim.md
    pyptoLens = {
      inlayHints = { enabled = true, labelStyle = "short", scalar = false },
      diagnostics = { enabled = true },
    },
  },
})
vim.lsp.enable("pypto_lens")

vim.lsp.inlay_hint.enable(true)
-- where a line has a warning and an information, show the warning's sign
vim.diagnostic.config({ severity_sort = true })

-- K: the hover. Python's ftplugin sets 'keywordprg' to pydoc, and then Neovim
-- does not map K to the hover by itself. A scope's captured buffers come as a code
-- lens above its header: Neovim shows lenses once asked for them.
vim.api.nvim_create_autocmd("LspAttach", {
  callback = function(ev)
    local client = vim.lsp.get_client_by_id(ev.data.client_id)
    if client and client.name == "pypto_lens" then
      vim.keymap.set("n", "K", vim.lsp.buf.hover, { buffer = ev.buf, desc = "PyPTO Lens: directions of the call" })
      vim.lsp.codelens.refresh({ bufnr = ev.buf })
      vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave", "TextChanged" }, {
        buffer = ev.buf,
        callback = function()
          vim.lsp.codelens.refresh({ bufnr = ev.buf })
        end,
      })
    end
  end,
})
