// Bad input: one-line errors or partial results with warnings, never a change to the file.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { AGENT_IDS, agentModule } from '../../../src/core/formats/registry';
import { readTranscriptFile, TranscriptError } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const sample = fs.readFileSync(CLAUDE_SAMPLE, 'utf8');
const sha = (p: string): string => createHash('sha256').update(fs.readFileSync(p)).digest('hex');

async function readBytes(t: import('node:test').TestContext, content: string | Buffer) {
  const file = `${tmpDir(t)}/in.jsonl`;
  fs.writeFileSync(file, content);
  const before = sha(file);
  try {
    return await readTranscriptFile(file);
  } finally {
    assert.equal(sha(file), before, 'the input is never modified');
  }
}

const rejects = (p: Promise<unknown>, re: RegExp) => assert.rejects(p, (e: unknown) => e instanceof TranscriptError && re.test(e.message) && !e.message.includes('\n'));

test('empty file → one-line error', async (t) => { await rejects(readBytes(t, ''), /empty file/); });
test('binary data → one-line error', async (t) => { await rejects(readBytes(t, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0, 10, 0, 0])), /binary/); });
test('JSON that is not a transcript → one-line error', async (t) => { await rejects(readBytes(t, '{"name":"x","version":"1"}\n{"a":1}\n'), /in\.jsonl: a JSON Lines file, not a session of any supported agent/); });
test('a missing file → one-line error', async () => { await rejects(readTranscriptFile('/nonexistent/x.jsonl'), /no such file/); });

test('truncated last line (agent still writing) → partial result with a warning', async (t) => {
  const cut = sample.slice(0, sample.length - 400);
  const { session } = await readBytes(t, cut);
  assert.equal(session.warnings.length, 1);
  assert.match(session.warnings[0]!, /last line .* incomplete/);
  assert.ok(session.messages.length > 10);
});

test('invalid lines in the middle are skipped with one folded warning', async (t) => {
  const lines = sample.trimEnd().split('\n');
  lines.splice(20, 0, 'not json at all', '{"broken": ');
  const { session } = await readBytes(t, lines.join('\n') + '\n');
  assert.equal(session.warnings.length, 1);
  assert.match(session.warnings[0]!, /2 lines are not valid JSON .*21, 22/);
  assert.equal(session.records.length, lines.length);
});

test('a 60 MB single line is read without a crash', async (t) => {
  const first = sample.slice(0, sample.indexOf('\n') + 1);
  const huge = JSON.stringify({ type: 'user', parentUuid: null, uuid: 'u-huge', sessionId: 's', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'x '.repeat(30_000_000) } });
  const { session } = await readBytes(t, first + huge + '\n');
  assert.equal(session.messages.length, 1);
  assert.ok(session.messages[0]!.blocks[0]!.tokens > 1_000_000);
});

test('a file no agent reads: the one-line error names every supported agent', async (t) => {
  for (const text of ['{"name":"x","version":"1"}\n{"a":1}\n', '{\n  "name": "x"\n}\n']) {
    await assert.rejects(readBytes(t, text), (e: Error) => {
      assert.ok(e instanceof TranscriptError && !e.message.includes('\n'), e.message);
      for (const id of AGENT_IDS) assert.ok(e.message.includes(agentModule(id).label), `${agentModule(id).label} missing: ${e.message}`);
      return true;
    });
  }
});
