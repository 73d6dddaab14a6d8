#!/usr/bin/env bash
# Produces a REAL Qwen Code session: the real CLI (npm @qwen-code/qwen-code, pinned) runs two scripted prompts (the
# second resumes the first with `--resume <id>`) in a small git repo against a loopback Chat Completions API
# (fake-openai-chat.mjs), executing every tool call itself. Usage: gen-qwen.sh OUTDIR
#   QWEN_BIN=path/to/qwen to use an installed CLI; otherwise the one scripts/install-qwen.sh installs.
set -euo pipefail
out=$(realpath -m "${1:?usage: gen-qwen.sh OUTDIR}")
here=$(cd "$(dirname "$0")" && pwd)
QWEN_BIN=${QWEN_BIN:-$(bash "$here/../install-qwen.sh" | sed 's/^.* at //')}
work=$(mktemp -d); port=$((19500 + RANDOM % 400))
mkdir -p "$work/home" "$work/repo"
cd "$work/repo"
printf 'alpha\nbeta\n' > notes.txt
printf 'export const rate = 0.07; // tax rate ticket TAX-4417\nexport function total(x) { return x * (1 + rate); }\n' > price.js
git init -q && git add -A && git -c user.email=gen@example.com -c user.name=gen commit -qm init
cat > "$work/scenario.json" <<JSON
{"steps":[
 {"tool":"run_shell_command","args":{"command":"ls -la","description":"list files"}},
 {"tool":"read_file","args":{"file_path":"$work/repo/price.js"}},
 {"text":"price.js applies a 7% tax rate (ticket TAX-4417) in total()."},
 {"tool":"grep_search","args":{"pattern":"rate","path":"$work/repo"}},
 {"tool":"edit","args":{"file_path":"$work/repo/price.js","old_string":"0.07","new_string":"0.08"}},
 {"tool":"read_file","args":{"absolute_path":"$work/repo/notes.txt"}},
 {"text":"The rate is now 0.08; notes.txt was not read (wrong parameter name)."}
]}
JSON
node "$here/fake-openai-chat.mjs" $port "$work/scenario.json" "$work/requests.jsonl" & srv=$!
trap 'kill $srv 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 0.5
export HOME="$work/home" OPENAI_BASE_URL="http://127.0.0.1:$port/v1" OPENAI_API_KEY=sk-loopback OPENAI_MODEL=qwen3-coder-plus QWEN_CODE_SUPPRESS_YOLO_WARNING=1
timeout 300 "$QWEN_BIN" --auth-type openai --yolo -p "What does price.js compute?" > /dev/null
chat=$(ls "$HOME"/.qwen/projects/*/chats/*.jsonl); id=$(basename "$chat" .jsonl)
timeout 300 "$QWEN_BIN" --auth-type openai --yolo --resume "$id" -p "Raise the rate to 8 percent." > /dev/null
mkdir -p "$out"
# The paths inside the session name the temporary folder; the fixture keeps them as written.
cp "$chat" "$out/"
cp "$work/requests.jsonl" "$out/requests.log.jsonl"
"$QWEN_BIN" --version > "$out/VERSION"
ls -la "$out"
