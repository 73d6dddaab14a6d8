// `export FILE --markdown`: every message of the live context, transcript text as text, one-line errors.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {} });
  return { code, stdout, stderr };
}

for (const file of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
  test(`export --markdown ${path.basename(file).slice(0, 30)}: one section per message, the latest prompt included`, async () => {
    const { session } = await readTranscriptFile(file);
    const r = await cli('export', file, '--markdown');
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.stdout.match(/^## \d+\. /gm) ?? []).length, session.messages.length);
    const lastPrompt = [...session.messages].reverse().find((m) => m.role === 'user' && !m.toolResultsOnly && m.blocks.some((b) => b.type === 'text'));
    const text = lastPrompt!.blocks.find((b) => b.type === 'text')!;
    assert.ok(r.stdout.includes((text as { text: string }).text.slice(0, 60)), 'the latest prompt is in the export');
  });
}

test('export --out writes a file; a missing format flag or file is one line, exit 2', async (t) => {
  const dir = tmpDir(t);
  const out = path.join(dir, 'session.md');
  assert.equal((await cli('export', CLAUDE_SAMPLE, '--markdown', '--out', out)).code, 0);
  assert.match(fs.readFileSync(out, 'utf8'), /^# Claude Code session /);
  const noFlag = await cli('export', CLAUDE_SAMPLE);
  assert.equal(noFlag.code, 2);
  assert.match(noFlag.stderr, /--markdown/);
  const missing = await cli('export', path.join(dir, 'nope.jsonl'), '--markdown');
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr.trim().split('\n').length, 1);
});
