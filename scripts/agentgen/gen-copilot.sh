#!/usr/bin/env bash
# Produces a REAL GitHub Copilot CLI session: the real CLI (npm @github/copilot, pinned) runs two scripted prompts (the
# second resumes the first with `--resume=<id>`) in a small git repo, offline with its BYOK provider settings
# (COPILOT_OFFLINE=1, COPILOT_PROVIDER_BASE_URL → a loopback Chat Completions API, fake-openai-chat.mjs), executing
# every tool call itself. No GitHub sign-in is involved. Usage: gen-copilot.sh OUTDIR
#   COPILOT_BIN=path/to/copilot to use an installed CLI.
set -euo pipefail
out=$(realpath -m "${1:?usage: gen-copilot.sh OUTDIR}")
here=$(cd "$(dirname "$0")" && pwd)
COPILOT_BIN=${COPILOT_BIN:?set COPILOT_BIN (npm install @github/copilot@1.0.102 into a folder of your choice)}
work=$(mktemp -d); port=$((19500 + RANDOM % 400))
mkdir -p "$work/home" "$work/repo"
cd "$work/repo"
printf 'alpha\nbeta\n' > notes.txt
printf 'export const rate = 0.07; // tax rate ticket TAX-4417\nexport function total(x) { return x * (1 + rate); }\n' > price.js
git init -q && git add -A && git -c user.email=gen@example.com -c user.name=gen commit -qm init
cat > "$work/scenario.json" <<JSON
{"steps":[
 {"tool":"bash","args":{"command":"ls -la","description":"list files"}},
 {"tool":"view","args":{"path":"$work/repo/price.js"}},
 {"text":"price.js applies a 7% tax rate (ticket TAX-4417) in total()."},
 {"tool":"grep","args":{"pattern":"rate","paths":"$work/repo"}},
 {"tool":"edit","args":{"path":"$work/repo/price.js","old_str":"0.07","new_str":"0.08"}},
 {"tool":"view","args":{"path":"$work/repo/missing.txt"}},
 {"text":"The rate is now 0.08; missing.txt does not exist."}
]}
JSON
node "$here/fake-openai-chat.mjs" $port "$work/scenario.json" "$work/requests.jsonl" & srv=$!
trap 'kill $srv 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 0.5
export HOME="$work/home" COPILOT_OFFLINE=1 COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$port/v1" COPILOT_PROVIDER_API_KEY=sk-loopback COPILOT_PROVIDER_TYPE=openai COPILOT_MODEL=gpt-4.1
timeout 300 "$COPILOT_BIN" -p "What does price.js compute?" --allow-all-tools > /dev/null
dir=$(ls -d "$HOME"/.copilot/session-state/*/); id=$(basename "$dir")
timeout 300 "$COPILOT_BIN" --resume="$id" -p "Raise the rate to 8 percent." --allow-all-tools > /dev/null
mkdir -p "$out/$id"
# The session's record and its workspace description; checkpoints, locks and the session database stay behind.
cp "$dir/events.jsonl" "$dir/workspace.yaml" "$out/$id/"
"$COPILOT_BIN" --version | head -1 > "$out/VERSION"
ls -la "$out/$id"
