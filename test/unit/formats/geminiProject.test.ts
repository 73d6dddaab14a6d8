// A Gemini CLI chat's project from its projectHash: every folder a mentioned path lies in, down to the root's own.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { projectFromHash } from '../../../src/core/formats/gemini-cli/project';

const hash = (p: string): string => createHash('sha256').update(p).digest('hex');

test('a project right under the root (/app, C:\\repo) is found from a file the chat mentions', () => {
  assert.equal(projectFromHash(hash('/app'), 'I read /app/src/index.ts and it fails'), '/app');
  assert.equal(projectFromHash(hash('C:\\repo'), 'opened C:\\\\repo\\\\src\\\\main.py'), 'C:\\repo');
  assert.equal(projectFromHash(hash('/work/app'), 'see /work/app/src/index.ts'), '/work/app', 'deeper folders as before');
});

test('the root itself is never a project', () => {
  assert.equal(projectFromHash(hash('/'), 'see /app/src/index.ts'), undefined);
  assert.equal(projectFromHash(hash('C:\\'), 'opened C:\\\\repo\\\\main.py'), undefined);
});
