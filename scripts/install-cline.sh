#!/usr/bin/env bash
# Installs the pinned real Cline CLI (npm `cline`, the classic core that writes tasks/<id>/ folders) into
# .cache/agents/cline for test/resume and scripts/agentgen/gen-cline.mjs; a fast no-op when present.
# Usage: scripts/install-cline.sh   (prints the entry point; tests also accept CLINE_BIN)
set -euo pipefail
source "$(dirname "$0")/lib/pinned-npm.sh"
CLINE_VERSION=2.18.0
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents/cline"
entry="$dir/node_modules/cline/dist/cli.mjs"

# The version check runs in a throwaway home (the CLI writes its data folder there), removed on exit.
home=$(mktemp -d); trap 'rm -rf "$home"' EXIT
works() { [ -f "$entry" ] && HOME="$home" node "$entry" --version 2>/dev/null | grep -qF "$CLINE_VERSION"; }

# --ignore-scripts: @vscode/ripgrep's postinstall downloads a binary from outside the npm registry; the
# scenarios use no search tool, and the CLI runs without it.
pinned_install install-cline "$dir" works : --ignore-scripts "cline@$CLINE_VERSION"

# A start-up race in this CLI: `cline -T <id> <prompt>` hands the prompt to the resumed task 100 ms after loading it,
# but the task clears any answer when it starts asking "resume?" — on a busy machine the ask comes later and the
# CLI then waits forever (one start in three here, every start under CI load). The one-expression fix below hands
# the prompt over only once the task is asking (isInitialized is set in the same tick as the ask); nothing in how
# Cline reads the task folder or builds its requests changes. Idempotent; fails loudly if the CLI's code moved.
node - "$entry" <<'JS'
const fs = require('node:fs');
const file = process.argv[2];
const racy = 'a&&e.task&&(await new Promise(I=>setTimeout(I,100)),await e.task.handleWebviewAskResponse("messageResponse",a))';
const fixed = 'a&&e.task&&(await new Promise(I=>{let W=()=>e.task?.taskState?.isInitialized?setTimeout(I,100):setTimeout(W,25);W()}),await e.task.handleWebviewAskResponse("messageResponse",a))';
const code = fs.readFileSync(file, 'utf8');
if (code.includes(fixed)) process.exit(0);
if (code.split(racy).length !== 2) { console.error(`install-cline: the resume hand-over to patch is not in ${file}`); process.exit(1); }
fs.writeFileSync(file, code.replace(racy, fixed));
JS
echo "cline $CLINE_VERSION at $entry"
