// The line reader and parsers are classes with instances kept for their hidden classes (read/shapeKeeper.ts): no state
// of one read may reach the next. Reads in a row in one process equal each file read alone in a fresh process.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { readDigest } from './readerState.child';

const REAL = join(__dirname, '../../fixtures/real');
// Two Claude Code sessions (other ids, cwds, versions, git branches), a legacy and a current Codex rollout.
const FILES = [
  'claude-code/jtowe-1.0.59-windows.jsonl',
  'claude-code/volcano-2.1.92-subagent-aside-question.jsonl',
  'codex/ocodex-0.2x-legacy-format.jsonl',
  'codex/idaho-0.117.0-alpha.10-compacted-websearch-image-windows.jsonl',
].map((f) => join(REAL, f));
// Plain (compact's read), with the lines kept (write-back) and lean (inspect's, tool outputs cut in place).
const MODES = ['plain', 'raw', 'lean'];

/** Each file's digests, read alone in a fresh process per file. */
function freshDigests(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of FILES) {
    const args = MODES.map((m) => `${m} ${file}`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'readerState.child.ts'), ...args], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    for (const line of r.stdout.trim().split('\n')) { const { arg, digest } = JSON.parse(line) as { arg: string; digest: string }; out.set(arg, digest); }
  }
  return out;
}

test('sessions read in a row (each format, mode and file, then the first ones again) equal a fresh process\'s reads', async () => {
  const fresh = freshDigests();
  assert.equal(fresh.size, FILES.length * MODES.length);
  // Every file in every mode, interleaved, then the list again in reverse: each read follows one of another session.
  const order: string[] = [];
  for (const mode of MODES) for (const file of FILES) order.push(`${mode} ${file}`);
  order.push(...[...order].reverse());
  const differ: string[] = [];
  for (const arg of order) {
    const space = arg.indexOf(' ');
    if (await readDigest(arg.slice(0, space), arg.slice(space + 1)) !== fresh.get(arg)) differ.push(arg);
  }
  assert.deepEqual(differ, []);
});
