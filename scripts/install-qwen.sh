#!/usr/bin/env bash
# Installs the pinned real Qwen Code CLI into .cache/agents for test/resume and scripts/agentgen; a fast no-op when present.
# Usage: scripts/install-qwen.sh   (prints the binary path; tests also accept QWEN_BIN)
set -euo pipefail
QWEN_VERSION=0.24.4
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
qwen="$dir/node_modules/.bin/qwen"

if ! "$qwen" --version 2>/dev/null | grep -qxF "$QWEN_VERSION"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-agents","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "@qwen-code/qwen-code@$QWEN_VERSION" >&2
  "$qwen" --version 2>/dev/null | grep -qxF "$QWEN_VERSION" || { echo "install-qwen: the installed CLI does not run ($qwen)" >&2; exit 1; }
fi
echo "qwen $("$qwen" --version) at $qwen"
