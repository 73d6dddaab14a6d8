#!/usr/bin/env bash
# Installs the pinned real Goose CLI (npm @aaif/goose-binary-<platform>, the binary @aaif/goose-sdk ships) into
# .cache/agents for test/resume and scripts/agentgen/gen-goose.mjs; a fast no-op when present.
# Usage: scripts/install-goose.sh   (prints the binary path; tests also accept GOOSE_BIN)
set -euo pipefail
PACKAGE_VERSION=0.20.2   # ships goose 1.37.0
GOOSE_VERSION=1.37.0
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) echo "install-goose: no Goose binary package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
goose="$dir/node_modules/@aaif/goose-binary-$platform/bin/goose"

if ! "$goose" --version 2>/dev/null | grep -qF "$GOOSE_VERSION"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-agents","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "@aaif/goose-binary-$platform@$PACKAGE_VERSION" >&2
  "$goose" --version 2>/dev/null | grep -qF "$GOOSE_VERSION" || { echo "install-goose: the installed CLI does not run ($goose)" >&2; exit 1; }
fi
echo "goose $("$goose" --version | tr -d ' ') at $goose"
