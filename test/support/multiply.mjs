// Copied from /work/shared/agentgen/multiply.mjs so tests and the benchmark run from this repository alone.
// Makes a ~/.claude/projects-shaped corpus of N sessions from real generated transcripts,
// re-keying session ids, uuids, message ids and request ids per copy so no two copies dedupe.
// Usage: node multiply.mjs OUT_PROJECTS_DIR N SRC.jsonl...
import fs from 'node:fs';
import path from 'node:path';
const [out, nArg, ...srcs] = process.argv.slice(2);
const n = Number(nArg);
const idRe = /("(?:uuid|parentUuid|sessionId|leafUuid|id|requestId|promptId|tool_use_id|sourceToolAssistantUUID|messageId)":")([^"]+)"/g;
for (let i = 0; i < n; i++) {
  const src = srcs[i % srcs.length];
  const text = fs.readFileSync(src, 'utf8');
  const suffix = i.toString(16).padStart(6, '0');
  const rekey = (s) => (/^[0-9a-f-]{36}$/.test(s) ? s.slice(0, 30) + suffix : s + '_' + suffix);
  const body = text.replace(idRe, (_, k, v) => `${k}${rekey(v)}"`);
  const session = rekey(path.basename(src, '.jsonl'));
  const dir = path.join(out, `-work-project-${i % 7}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${session}.jsonl`), body);
}
