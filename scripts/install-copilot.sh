#!/usr/bin/env bash
# Installs the pinned real GitHub Copilot CLI into .cache/agents for test/resume and scripts/agentgen; a fast no-op when
# present. It runs offline with its bring-your-own-key settings (no GitHub sign-in). Its package is a small loader plus
# this platform's native binary (~190 MB unpacked), which unpacks itself into COPILOT_CACHE_HOME on first run.
# Usage: scripts/install-copilot.sh   (prints the binary path; tests also accept COPILOT_BIN)
set -euo pipefail
COPILOT_VERSION=1.0.102
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
copilot="$dir/node_modules/.bin/copilot"

if ! "$copilot" --version 2>/dev/null | grep -qF "$COPILOT_VERSION"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-agents","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "@github/copilot@$COPILOT_VERSION" >&2
  "$copilot" --version 2>/dev/null | grep -qF "$COPILOT_VERSION" || { echo "install-copilot: the installed CLI does not run ($copilot)" >&2; exit 1; }
fi
echo "copilot $COPILOT_VERSION at $copilot"
