#!/usr/bin/env bash
# Produces a REAL Qwen Code or GitHub Copilot CLI session: the real CLI (pinned, scripts/install-npm-cli.sh) runs
# two scripted prompts (the second resumes the first) in a small git repo against a loopback Chat Completions API
# (fake-openai-chat.mjs), executing every tool call itself. Usage: gen-chat-agent.sh qwen|copilot OUTDIR [--compress]
#   --compress: a third run, `--resume <id> -p /compress` (Qwen Code) or `-p /compact` (Copilot CLI), makes the agent
#   compact its own history (the fake answers the compaction request with a scripted <state_snapshot>), then a fourth
#   prompt continues after it. REQUESTS_OUT=FILE keeps what the fake received.
#   Qwen Code: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL, `--auth-type openai --yolo`, `--resume <id>`.
#   Copilot CLI: its own-key settings (COPILOT_OFFLINE=1, COPILOT_PROVIDER_BASE_URL/_TYPE/_API_KEY, COPILOT_MODEL; no
#   GitHub sign-in), `--allow-all-tools`, `--resume=<id>`. QWEN_BIN / COPILOT_BIN to use an installed CLI.
set -euo pipefail
agent=${1:?usage: gen-chat-agent.sh qwen|copilot OUTDIR}
compress=${3:-}
out=$(realpath -m "${2:?usage: gen-chat-agent.sh qwen|copilot OUTDIR}")
here=$(cd "$(dirname "$0")" && pwd)
installed() { bash "$here/../install-npm-cli.sh" "$1" | sed -n "s/^$1 .* at //p"; }
work=$(mktemp -d); port=$((19500 + RANDOM % 400))
mkdir -p "$work/home" "$work/repo"
cd "$work/repo"
printf 'alpha\nbeta\n' > notes.txt
printf 'export const rate = 0.07; // tax rate ticket TAX-4417\nexport function total(x) { return x * (1 + rate); }\n' > price.js
git init -q && git add -A && git -c user.email=gen@example.com -c user.name=gen commit -qm init
# The same steps in each agent's own tool names; the last call of each fails (a wrong parameter, a missing file).
case "$agent" in
  qwen) shell=run_shell_command; view='"read_file","args":{"file_path"'; grep='"grep_search","args":{"pattern":"rate","path"'
        edit='"edit","args":{"file_path":"'"$work"'/repo/price.js","old_string":"0.07","new_string":"0.08"}'; bad='"read_file","args":{"absolute_path":"'"$work"'/repo/notes.txt"}' ;;
  copilot) shell=bash; view='"view","args":{"path"'; grep='"grep","args":{"pattern":"rate","paths"'
        edit='"edit","args":{"path":"'"$work"'/repo/price.js","old_str":"0.07","new_str":"0.08"}'; bad='"view","args":{"path":"'"$work"'/repo/missing.txt"}' ;;
  *) echo "gen-chat-agent: unknown agent $agent (qwen or copilot)" >&2; exit 2 ;;
esac
cat > "$work/scenario.json" <<JSON
{"steps":[
 {"tool":"$shell","args":{"command":"ls -la","description":"list files"}},
 {"tool":$view:"$work/repo/price.js"}},
 {"text":"price.js applies a 7% tax rate (ticket TAX-4417) in total()."},
 {"tool":$grep:"$work/repo"}},
 {"tool":$edit},
 {"tool":$bad},
 {"text":"The rate is now 0.08; the last file could not be read."}
],
"compression":"<state_snapshot><overall_goal>Raise the tax rate in price.js to 8 percent.</overall_goal><key_knowledge>price.js: rate was 0.07 (ticket TAX-4417).</key_knowledge><file_system_state>MODIFIED: price.js rate 0.07 -> 0.08</file_system_state><recent_actions>edit price.js; read_file of notes.txt failed (wrong parameter name)</recent_actions><current_plan>1. [DONE] raise the rate</current_plan></state_snapshot>"
}
JSON
node "$here/fake-openai-chat.mjs" $port "$work/scenario.json" "$work/requests.jsonl" & srv=$!
trap 'kill $srv 2>/dev/null || true; [ -z "${REQUESTS_OUT:-}" ] || cp "$work/requests.jsonl" "$REQUESTS_OUT"; rm -rf "$work"' EXIT
sleep 0.5
export HOME="$work/home"
mkdir -p "$out"
if [ "$agent" = qwen ]; then
  bin=${QWEN_BIN:-$(installed qwen)}
  export OPENAI_BASE_URL="http://127.0.0.1:$port/v1" OPENAI_API_KEY=sk-loopback OPENAI_MODEL=qwen3-coder-plus QWEN_CODE_SUPPRESS_YOLO_WARNING=1
  timeout 300 "$bin" --auth-type openai --yolo -p "What does price.js compute?" > /dev/null
  chat=$(ls "$HOME"/.qwen/projects/*/chats/*.jsonl)
  timeout 300 "$bin" --auth-type openai --yolo --resume "$(basename "$chat" .jsonl)" -p "Raise the rate to 8 percent." > /dev/null
  if [ "$compress" = --compress ]; then
    timeout 300 "$bin" --auth-type openai --yolo --resume "$(basename "$chat" .jsonl)" -p "/compress" > /dev/null
    timeout 300 "$bin" --auth-type openai --yolo --resume "$(basename "$chat" .jsonl)" -p "Which rate does price.js apply now?" > /dev/null
  fi
  cp "$chat" "$out/"
else
  bin=${COPILOT_BIN:-$(installed copilot)}
  export COPILOT_OFFLINE=1 COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$port/v1" COPILOT_PROVIDER_API_KEY=sk-loopback COPILOT_PROVIDER_TYPE=openai COPILOT_MODEL=gpt-4.1
  timeout 300 "$bin" -p "What does price.js compute?" --allow-all-tools > /dev/null
  dir=$(ls -d "$HOME"/.copilot/session-state/*/); id=$(basename "$dir")
  timeout 300 "$bin" --resume="$id" -p "Raise the rate to 8 percent." --allow-all-tools > /dev/null
  if [ "$compress" = --compress ]; then
    timeout 300 "$bin" --resume="$id" -p "/compact" --allow-all-tools > /dev/null
    timeout 300 "$bin" --resume="$id" -p "Which rate does price.js apply now?" --allow-all-tools > /dev/null
  fi
  # The session's log and workspace description; checkpoints, locks and the session database stay behind.
  mkdir -p "$out/$id" && cp "$dir/events.jsonl" "$dir/workspace.yaml" "$out/$id/"
fi
"$bin" --version | head -1 > "$out/VERSION"
ls -la "$out"
