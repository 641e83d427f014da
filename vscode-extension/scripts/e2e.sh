#!/usr/bin/env bash
# End-to-end test of the .vsix in a real VS Code: code-server 4.100.3 (VS Code 1.100.3) in a
# throw-away profile, driven by Debian's headless Chromium through playwright-core.
#
#   scripts/e2e.sh pypto-lens-<version>.vsix
#
# Installs what it needs (pinned): Chromium from Debian, code-server from npm into a cache
# folder ($PYPTO_LENS_CODE_SERVER, default ~/.cache/pypto-lens/code-server-4.100.3).
# Screenshots go to <project>/test-artifacts/e2e/; with PYPTO_LENS_UPDATE_SCREENSHOT=1 a
# passing run copies the README's pictures to docs/ (the model with its hints and lenses, its hover,
# the warning), and the task graph beside the model (e2e/workspace/decode_layer.py) to
# docs/task-graph-vscode.png.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
vsix=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cs_dir=${PYPTO_LENS_CODE_SERVER:-${XDG_CACHE_HOME:-$HOME/.cache}/pypto-lens/code-server-4.100.3}
artifacts="$root/test-artifacts/e2e"

start=$SECONDS
"$here/scripts/apt-install.sh" chromium fonts-dejavu-core curl
"$here/scripts/install-code-server.sh" "$cs_dir"
code_server="$cs_dir/node_modules/.bin/code-server"
echo "e2e: tools ready in $((SECONDS - start)) s"

tmp=$(mktemp -d -t pypto-lens-e2e.XXXXXX)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# A workspace holding a pl program, and a profile nobody used before.
mkdir -p "$tmp/workspace/.vscode" "$tmp/profile/data/User" "$tmp/profile/extensions" "$tmp/home"
cp "$here/e2e/workspace/"*.py "$tmp/workspace/"
cat > "$tmp/workspace/.vscode/settings.json" <<'JSON'
{
  "editor.inlayHints.enabled": "on",
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "workbench.tips.enabled": false,
  "chat.commandCenter.enabled": false,
  "git.enabled": false,
  "pyptoLens.logLevel": "debug"
}
JSON
cp "$tmp/workspace/.vscode/settings.json" "$tmp/profile/data/User/settings.json"

# The workspace is a git repository (the e2e changes settings.json: it is not committed). Branch
# e2e-inout differs in one line: fill_kernel.py declares dst pl.InOut[...]; the e2e checks it out with
# fill_caller.py open (never fill_kernel.py) and the caller's hint follows the file on disk. VS Code's
# own git is off (git.enabled above), so that nothing else takes the index meanwhile.
wgit() {
  GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
    git -C "$tmp/workspace" -c user.name=e2e -c user.email=e2e@localhost -c commit.gpgsign=false "$@"
}
wgit init --quiet --initial-branch=e2e-main
mkdir -p "$tmp/workspace/.git/info" && echo '.vscode/' >> "$tmp/workspace/.git/info/exclude"
wgit add --all && wgit commit --quiet -m 'the e2e workspace'
wgit checkout --quiet -b e2e-inout
sed -i 's/dst: pl\.Out\[/dst: pl.InOut[/' "$tmp/workspace/fill_kernel.py"
grep -q 'dst: pl.InOut\[' "$tmp/workspace/fill_kernel.py" || { echo "e2e: fill_kernel.py has no pl.Out dst to change" >&2; exit 1; }
wgit commit --quiet -am "fill_kernel.py: dst is pl.InOut[...]"
wgit checkout --quiet e2e-main
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$tmp/profile/config.yaml" <<YAML
bind-addr: 127.0.0.1:$port
auth: none
cert: false
YAML
cs_args=(--user-data-dir "$tmp/profile/data" --extensions-dir "$tmp/profile/extensions" --config "$tmp/profile/config.yaml")

export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share"
"$code_server" "${cs_args[@]}" --install-extension "$vsix"

mkdir -p "$artifacts"
rm -f "$artifacts"/*.png "$artifacts"/*.log
"$code_server" "${cs_args[@]}" --disable-telemetry --disable-update-check --disable-workspace-trust \
  --disable-getting-started-override "$tmp/workspace" > "$artifacts/code-server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$artifacts/code-server.log"; echo "e2e: code-server exited" >&2; exit 1; }
  sleep 0.5
done
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "e2e: code-server did not answer" >&2; exit 1; }

# The task-graph step needs the server's pyptoLens.taskGraph command: without it the e2e checks
# that the panel says so instead (the server side lands separately).
task_graph=0
if python3 -I "$here/scripts/server_commands.py" "$here/bundled/tool/pypto_lens_server.py" | grep -qx 'pyptoLens.taskGraph'; then
  task_graph=1
fi
echo "e2e: the bundled server offers pyptoLens.taskGraph: $([ "$task_graph" = 1 ] && echo yes || echo no)"

status=0
E2E_TASK_GRAPH=$task_graph E2E_URL="http://127.0.0.1:$port/?folder=$tmp/workspace" E2E_WORKSPACE="$tmp/workspace" \
  E2E_EXTENSIONS="$tmp/profile/extensions" E2E_LOGS="$tmp/profile/data/logs" E2E_ARTIFACTS="$artifacts" E2E_CHROMIUM=/usr/bin/chromium \
  timeout 420 node "$here/e2e/run.js" || status=$?

# the extension's output channel and the extension host log, for the record
find "$tmp/profile/data/logs" -name '*PyPTO Lens*.log' -exec cp {} "$artifacts/output-channel.log" \; 2>/dev/null || true
find "$tmp/profile/data/logs" -name 'exthost.log' -exec cp {} "$artifacts/exthost.log" \; 2>/dev/null || true
if [ "$status" -eq 0 ]; then
  # the documentation's picture (hints, a hover, the warning) changes only when asked:
  # a test run must not modify tracked files
  if [ "${PYPTO_LENS_UPDATE_SCREENSHOT:-0}" = 1 ]; then
    cp "$artifacts/model.png" "$root/docs/screenshot.png"
    cp "$artifacts/model-hover.png" "$root/docs/screenshot-hover.png"
    cp "$artifacts/hover.png" "$root/docs/screenshot-warning.png"
    echo "e2e: docs/screenshot.png, screenshot-hover.png and screenshot-warning.png updated"
    cp "$artifacts/draft-model.png" "$root/docs/screenshot-helpers.png"
    cp "$artifacts/draft-model-hover.png" "$root/docs/screenshot-helper-hover.png"
    echo "e2e: docs/screenshot-helpers.png and screenshot-helper-hover.png updated"
    if [ -f "$artifacts/task-graph-draft-focus.png" ]; then
      cp "$artifacts/task-graph-draft-focus.png" "$root/docs/task-graph-helpers.png"
      echo "e2e: docs/task-graph-helpers.png updated"
    fi
    if [ -f "$artifacts/task-graph-model.png" ]; then
      cp "$artifacts/task-graph-model.png" "$root/docs/task-graph-vscode.png"
      echo "e2e: docs/task-graph-vscode.png updated"
    fi
  fi
  echo "e2e: passed in $((SECONDS - start)) s; screenshots in $artifacts"
else
  echo "e2e: FAILED (status $status); screenshots and logs in $artifacts" >&2
fi
exit "$status"
