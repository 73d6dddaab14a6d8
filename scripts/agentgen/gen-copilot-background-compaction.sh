#!/usr/bin/env bash
# Real Copilot CLI background compaction (test/fixtures/copilot-cli/session-1.0.102-background-compact): a ~38k-token
# prompt puts the context past the threshold (51k of 64k), so Copilot CLI compacts in the background while the task
# goes on. Usage: COPILOT_BIN=... gen-copilot-background-compaction.sh OUTDIR (N=lines of big.txt, HEADN=lines quoted)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); out=$(realpath -m "${1:?usage: gen-copilot-background-compaction.sh OUTDIR}")
bin=${COPILOT_BIN:?the copilot CLI (npm @github/copilot@1.0.102)}
work=$(mktemp -d); mkdir -p "$work/home" "$work/repo"; port=$((19600 + RANDOM % 300))
cd "$work/repo"
node -e 'let s="";for(let i=0;i<+process.argv[1];i++)s+=`line ${i}: the quick brown fox ${i*7919%10007} jumps over the lazy dog ${i}\n`;require("fs").writeFileSync("big.txt",s)' ${N:-2600}
printf 'export const rate = 0.07;\n' > price.js
git init -q && git add -A && git -c user.email=g@e.com -c user.name=g commit -qm init
cat > "$work/scenario.json" <<JSON
{"steps":[
 {"tool":"bash","args":{"command":"cat big.txt","description":"show big file"}},
 {"tool":"bash","args":{"command":"ls -la","description":"list files"}},
 {"tool":"bash","args":{"command":"wc -l big.txt","description":"count"}},
 {"tool":"view","args":{"path":"$work/repo/price.js"}},
 {"tool":"bash","args":{"command":"sleep 2; echo one","description":"wait"}},
 {"tool":"bash","args":{"command":"sleep 2; echo two","description":"wait"}},
 {"text":"big.txt has 5200 lines; price.js sets rate 0.07."}
],
"compression":"<overview>Read big.txt (5200 lines) and price.js (rate 0.07, ticket TAX-4417).</overview>"
}
JSON
node "$here/fake-openai-chat.mjs" $port "$work/scenario.json" "$work/requests.jsonl" & srv=$!
trap 'kill $srv 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 0.5
export HOME="$work/home" COPILOT_OFFLINE=1 COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$port/v1" COPILOT_PROVIDER_API_KEY=sk-loopback COPILOT_PROVIDER_TYPE=openai COPILOT_MODEL=gpt-4.1
timeout 300 "$bin" -p "Read big.txt and price.js and tell me about them. For reference, big.txt starts: $(head -${HEADN:-2000} big.txt)" --allow-all-tools > "$work/out.txt" 2>&1 || true
dir=$(ls -d "$HOME"/.copilot/session-state/*/); mkdir -p "$out/$(basename "$dir")"; cp "$dir/events.jsonl" "$dir/workspace.yaml" "$out/$(basename "$dir")/"
node -e 'const L=require("fs").readFileSync(process.argv[1],"utf8").split("\n").filter(Boolean).map(JSON.parse);require("fs").writeFileSync(process.argv[2],JSON.stringify({messages:L.at(-1).body.messages},null,1)+"\n")' "$work/requests.jsonl" "$out/request-after-compaction.json"
