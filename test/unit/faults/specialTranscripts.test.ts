// A FIFO or a link to /dev/zero named like a transcript (`*.jsonl`) in a folder the scan walks (~/.claude/projects,
// a folder given to usage or eval): never opened, and a warning names it instead of a silent skip.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { discoverTranscripts } from '../../../src/node/usage/discover';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

test('discovery: a FIFO and a /dev/zero link named *.jsonl are skipped with a warning each; the real transcript is found', async (t) => {
  const dir = join(tmpDir(t), 'projects', 'p');
  mkdirSync(dir, { recursive: true });
  assert.equal(spawnSync('mkfifo', [join(dir, 'fifo.jsonl')]).status, 0, 'mkfifo');
  symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));
  copyFileSync(join(FIXTURES, 'claude-code', 'sample.jsonl'), join(dir, 'real.jsonl'));
  const found = await discoverTranscripts({ env: {}, includeDefaults: false, extraDirs: [dir] });
  assert.deepEqual(found.files, [join(dir, 'real.jsonl')]);
  assert.ok(found.warnings.includes(`${join(dir, 'fifo.jsonl')}: a FIFO, not a regular file; skipped`), found.warnings.join('; '));
  assert.ok(found.warnings.includes(`${join(dir, 'zero.jsonl')}: a device, not a regular file; skipped`), found.warnings.join('; '));
});
