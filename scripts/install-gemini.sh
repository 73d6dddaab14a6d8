#!/usr/bin/env bash
# Installs the pinned real Gemini CLI into .cache/agents for test/resume and scripts/gen-gemini.ts; a fast no-op when present.
# Usage: scripts/install-gemini.sh   (prints the binary path; tests also accept GEMINI_BIN)
set -euo pipefail
GEMINI_VERSION=0.61.0
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
gemini="$dir/node_modules/.bin/gemini"

if ! "$gemini" --version 2>/dev/null | grep -qxF "$GEMINI_VERSION"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-agents","private":true}' > "$dir/package.json"
  # Its optional native modules (node-pty, keytar) are not needed offline and in -p mode: their install scripts may not run.
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "@google/gemini-cli@$GEMINI_VERSION" >&2
  "$gemini" --version 2>/dev/null | grep -qxF "$GEMINI_VERSION" || { echo "install-gemini: the installed CLI does not run ($gemini)" >&2; exit 1; }
fi
echo "gemini $("$gemini" --version) at $gemini"
