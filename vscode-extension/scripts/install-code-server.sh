#!/usr/bin/env bash
# Installs code-server (a real VS Code, served to a browser) from the npm registry alone,
# for the end-to-end test. Idempotent: does nothing when DEST already holds this version.
#
#   scripts/install-code-server.sh DEST
#
# code-server 4.100.3 (VS Code 1.100.3) is the newest release whose engines.node is 20.
# Its npm postinstall cannot run here as is (root, no network but the package registries),
# so the steps it would take are done by hand, with these changes:
#   - scripts are skipped on the first install (the postinstall refuses root unless
#     npm_config_unsafe_perm is set, and several packages download binaries from GitHub);
#   - native modules are rebuilt from source against the local Node headers
#     (npm_config_nodedir), kerberos needing libkrb5-dev;
#   - ripgrep comes from Debian instead of @vscode/ripgrep's download;
#   - node-pty's postinstall calls `npx node-gyp`, which needs npm_config_yes.
set -euo pipefail
VERSION=4.100.3
DEST=${1:?usage: install-code-server.sh DEST}
BIN="$DEST/node_modules/.bin/code-server"

if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "^$VERSION "; then
  echo "code-server $VERSION already in $DEST"
  exit 0
fi

here=$(cd "$(dirname "$0")" && pwd)
"$here/apt-install.sh" build-essential python3 libkrb5-dev ripgrep

node_prefix=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
if [ ! -f "$node_prefix/include/node/node.h" ]; then
  echo "install-code-server: no Node headers under $node_prefix/include/node (native modules cannot build)" >&2
  exit 1
fi
export npm_config_nodedir="$node_prefix" npm_config_yes=true
npm_flags=(--no-audit --no-fund --loglevel=error)

rm -rf "$DEST"
mkdir -p "$DEST"
cd "$DEST"
printf '{"name": "code-server-install", "private": true}\n' > package.json
npm install "${npm_flags[@]}" --ignore-scripts "code-server@$VERSION"
npm rebuild "${npm_flags[@]}" argon2

cd node_modules/code-server/lib/vscode
npm install "${npm_flags[@]}" --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
npm rebuild "${npm_flags[@]}" kerberos native-watchdog node-pty @parcel/watcher @vscode/deviceid @vscode/spdlog
# the remainder of code-server's own postinstall
ln -sfn node_modules node_modules.asar
ln -sfn code-linux.sh bin/remote-cli/code-server
ln -sfn browser-linux.sh bin/helpers/browser.sh
(cd extensions && npm install "${npm_flags[@]}" --omit=dev)

"$BIN" --version
