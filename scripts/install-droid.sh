#!/usr/bin/env bash
# Installs the pinned real Factory Droid CLI (npm @factory/cli-<platform>, the binary @factory/cli's shim runs) into
# .cache/agents for test/resume and scripts/agentgen/gen-droid.mjs; a fast no-op when present.
# Usage: scripts/install-droid.sh   (prints the binary path; tests also accept DROID_BIN)
set -euo pipefail
DROID_VERSION=0.215.0   # the newest version whose linux-x64 binary package the registry holds (December 2026)
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) echo "install-droid: no Droid binary package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
droid="$dir/node_modules/@factory/cli-$platform/bin/droid"

if ! "$droid" --version 2>/dev/null | grep -qxF "$DROID_VERSION"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-agents","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "@factory/cli-$platform@$DROID_VERSION" >&2
  "$droid" --version 2>/dev/null | grep -qxF "$DROID_VERSION" || { echo "install-droid: the installed CLI does not run ($droid)" >&2; exit 1; }
fi
echo "droid $("$droid" --version) at $droid"
