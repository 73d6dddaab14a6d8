#!/usr/bin/env bash
# Installs the pinned real Cline CLI (npm `cline`, the classic core that writes tasks/<id>/ folders) into
# .cache/agents/cline for test/resume and scripts/agentgen/gen-cline.mjs; a fast no-op when present.
# Usage: scripts/install-cline.sh   (prints the entry point; tests also accept CLINE_BIN)
set -euo pipefail
CLINE_VERSION=2.18.0
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents/cline"
entry="$dir/node_modules/cline/dist/cli.mjs"

works() { [ -f "$entry" ] && HOME="$(mktemp -d)" node "$entry" --version 2>/dev/null | grep -qF "$CLINE_VERSION"; }

if ! works; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-cline","private":true}' > "$dir/package.json"
  # --ignore-scripts: @vscode/ripgrep's postinstall downloads a binary from outside the npm registry; the
  # scenarios use no search tool, and the CLI runs without it.
  npm install --prefix "$dir" --no-audit --no-fund --save-exact --ignore-scripts "cline@$CLINE_VERSION" >&2
  works || { echo "install-cline: the installed CLI does not run ($entry)" >&2; exit 1; }
fi
echo "cline $CLINE_VERSION at $entry"
