#!/usr/bin/env bash
# Installs the pinned real Qwen Code and GitHub Copilot CLIs (both speak OpenAI Chat Completions to a loopback model
# offline) into .cache/agents for test/resume and scripts/agentgen; a fast no-op when present. Copilot CLI's package
# is a small loader plus this platform's native binary (~190 MB unpacked), which unpacks itself into
# COPILOT_CACHE_HOME on first run. Usage: scripts/install-chat-agents.sh   (prints each binary's path; tests also
# accept QWEN_BIN / COPILOT_BIN)
set -euo pipefail
QWEN_VERSION=0.24.4
COPILOT_VERSION=1.0.102
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
qwen="$dir/node_modules/.bin/qwen"
copilot="$dir/node_modules/.bin/copilot"

works() { "$qwen" --version 2>/dev/null | grep -qxF "$QWEN_VERSION" && "$copilot" --version 2>/dev/null | grep -qF "$COPILOT_VERSION"; }

if ! works; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-agents","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "@qwen-code/qwen-code@$QWEN_VERSION" "@github/copilot@$COPILOT_VERSION" >&2
  works || { echo "install-chat-agents: the installed CLIs do not run (qwen: $qwen, copilot: $copilot)" >&2; exit 1; }
fi
echo "qwen $QWEN_VERSION at $qwen"
echo "copilot $COPILOT_VERSION at $copilot"
