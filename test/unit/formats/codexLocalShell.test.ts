// Codex `local_shell_call` items (hand-made from the real sample: no public rollout with one was found): read as calls
// with an object action, compacted into records whose action stays an object, paired with their outputs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pairsIntact } from '../../../src/core/compact/fidelity';
import { compactFile } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const HEREDOC = `cat > notes.md <<'EOF'\n${Array.from({ length: 60 }, (_, i) => `line ${i} of the notes with /src/module${i}.ts`).join('\n')}\nEOF`;

test('local_shell_call: read as a call, compacted to a record whose action stays an object, pairs intact', async (t) => {
  const dir = tmpDir(t);
  const lines = fs.readFileSync(CODEX_SAMPLE, 'utf8').split('\n');
  let converted = 0;
  const out = lines.map((l) => {
    if (!l.includes('"type":"function_call"')) return l;
    const o = JSON.parse(l) as { payload: Record<string, unknown> };
    const args = JSON.parse(String(o.payload.arguments)) as { cmd?: string };
    o.payload = { type: 'local_shell_call', call_id: o.payload.call_id, status: 'completed', action: { type: 'exec', command: ['bash', '-lc', converted++ === 0 ? HEREDOC : args.cmd ?? 'ls'] } };
    return JSON.stringify(o);
  });
  assert.ok(converted > 5);
  const file = path.join(dir, path.basename(CODEX_SAMPLE));
  fs.writeFileSync(file, out.join('\n'));
  const { session } = await readTranscriptFile(file);
  const calls = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_call');
  assert.equal(calls.length, converted);
  assert.ok(calls.every((b) => b.type === 'tool_call' && typeof b.input === 'object' && b.name === 'local_shell'));
  const report = await compactFile(file, { cleanup: { keepRecentTurns: 2, rules: { 'state-snapshot': { enabled: false }, 'tool-records': { params: { detailTurns: 1000 } } } }, out: path.join(dir, 'out.jsonl') });
  assert.equal(report.pairsIntact, true);
  const written = fs.readFileSync(path.join(dir, 'out.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { payload?: Record<string, unknown> });
  const shells = written.filter((l) => l.payload?.type === 'local_shell_call');
  assert.ok(shells.every((l) => typeof l.payload!.action === 'object'), 'the action is written as an object');
  const first = JSON.stringify(shells[0]!.payload!.action);
  assert.ok(first.includes('heredoc body of 60 lines omitted') && !first.includes('line 30 of the notes'), first.slice(0, 300));
  const { session: back } = await readTranscriptFile(path.join(dir, 'out.jsonl'));
  assert.ok(pairsIntact(back.messages, session.messages));
});
