#!/usr/bin/env bash
# Installs the pinned real agent CLIs (Claude Code, Codex, OpenCode) into .cache/agents for test/resume; a fast no-op when present.
# Usage: scripts/install-agents.sh   (prints the binary paths; tests also accept CLAUDE_BIN / CODEX_BIN / OPENCODE_BIN)
set -euo pipefail
source "$(dirname "$0")/lib/pinned-npm.sh"
CLAUDE_VERSION=2.1.328
CODEX_VERSION=0.169.0
OPENCODE_VERSION=1.18.33
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
mods="$dir/node_modules"
claude="$mods/.bin/claude"
codex="$mods/.bin/codex"
opencode="$mods/.bin/opencode"
plat=$(node -p 'process.platform + "-" + process.arch')

# Each must answer --version with the pinned version; anything less (a stub, a wrong version) reinstalls.
works() {
  "$claude" --version 2>/dev/null | grep -qF "$CLAUDE_VERSION" && "$codex" --version 2>/dev/null | grep -qF "$CODEX_VERSION" \
    && "$opencode" --version 2>/dev/null | grep -qF "$OPENCODE_VERSION"
}

after() {
  # Codex ships its native binary as an aliased optional dependency; make sure this platform's one landed.
  if [ ! -d "$mods/@openai/codex-$plat" ]; then
    npm install --prefix "$dir" --no-audit --no-fund --save-exact \
      "@openai/codex-$plat@npm:@openai/codex@$CODEX_VERSION-$plat" >&2
  fi
  # npm 11 may skip install scripts: Claude Code's postinstall copies the native binary over the
  # bin/claude.exe placeholder, so run it ourselves when the placeholder is still there.
  if ! "$claude" --version >/dev/null 2>&1; then
    (cd "$mods/@anthropic-ai/claude-code" && node install.cjs) >&2
  fi
  # OpenCode's postinstall links this platform's binary over bin/opencode.exe; npm 11 may skip it too.
  if ! "$opencode" --version >/dev/null 2>&1; then
    (cd "$mods/opencode-ai" && node postinstall.mjs) >&2
  fi
}

pinned_install install-agents "$dir" works after \
  "@anthropic-ai/claude-code@$CLAUDE_VERSION" "@openai/codex@$CODEX_VERSION" "opencode-ai@$OPENCODE_VERSION"
echo "claude $("$claude" --version) at $claude"
echo "codex $("$codex" --version) at $codex"
echo "opencode $("$opencode" --version) at $opencode"
