#!/usr/bin/env bash
# Installs one pinned real agent CLI that npm ships as a Node package, for test/resume and scripts/agentgen; a fast
# no-op when present. Usage: scripts/install-npm-cli.sh gemini|qwen|copilot|continue (prints "<cli> <version> at
# <path>"; tests also accept GEMINI_BIN / QWEN_BIN / COPILOT_BIN / CN_BIN)
#   gemini:   Gemini CLI, @google/gemini-cli (its optional native modules, node-pty and keytar, are not needed offline
#             and in -p mode: their install scripts may not run)
#   qwen:     Qwen Code, @qwen-code/qwen-code (speaks OpenAI Chat Completions to a loopback model offline)
#   copilot:  GitHub Copilot CLI, @github/copilot: a small loader plus this platform's native binary (~190 MB unpacked),
#             which unpacks itself into COPILOT_CACHE_HOME on first run
#   continue: Continue's `cn`, @continuedev/cli (self-contained: 13 packages), in a folder of its own (.cache/continue)
# Claude Code, Codex and OpenCode: install-agents.sh; Cline: install-cline.sh; per-platform binaries: install-platform-cli.sh.
set -euo pipefail
source "$(dirname "$0")/lib/pinned-npm.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
case "${1:-}" in
  gemini) package=@google/gemini-cli; bin=gemini; version=0.61.0 ;;
  qwen) package=@qwen-code/qwen-code; bin=qwen; version=0.24.4 ;;
  copilot) package=@github/copilot; bin=copilot; version=1.0.102 ;;
  continue) package=@continuedev/cli; bin=cn; version=1.5.47; dir="$root/.cache/continue" ;;
  *) echo "usage: install-npm-cli.sh gemini|qwen|copilot|continue" >&2; exit 2 ;;
esac
path="$dir/node_modules/.bin/$bin"
works() { "$path" --version 2>/dev/null | grep -qF "$version"; }
pinned_install "install-npm-cli $1" "$dir" works : "$package@$version"
echo "$bin $version at $path"
