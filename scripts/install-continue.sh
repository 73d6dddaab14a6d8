#!/usr/bin/env bash
# Installs the pinned real Continue CLI (`cn`, npm @continuedev/cli, self-contained: 13 packages) into .cache/continue for
# test/resume/continueResume.test.ts; a fast no-op when present. Usage: scripts/install-continue.sh (prints the path; CN_BIN overrides).
set -euo pipefail
CN_VERSION=1.5.47
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/continue"
cn="$dir/node_modules/.bin/cn"

if ! "$cn" --version 2>/dev/null | grep -qF "$CN_VERSION"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-continue","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "@continuedev/cli@$CN_VERSION" >&2
  "$cn" --version 2>/dev/null | grep -qF "$CN_VERSION" || { echo "install-continue: the installed CLI does not run ($cn)" >&2; exit 1; }
fi
echo "cn $("$cn" --version) at $cn"
