// Every real-CLI resume suite under test/resume runs in `npm test` (Node 20's --test takes no globs: they are listed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

test('test:resume lists every test/resume/*.test.ts', () => {
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  const listed = new Set(scripts['test:resume']!.split(/\s+/).filter((w) => w.startsWith('test/resume/')));
  const files = readdirSync('test/resume').filter((n) => n.endsWith('.test.ts')).map((n) => `test/resume/${n}`);
  assert.ok(files.length > 10);
  assert.deepEqual(files.filter((f) => !listed.has(f)), [], 'resume suites left out of npm test');
  assert.deepEqual([...listed].filter((f) => !files.includes(f)), [], 'test:resume names a missing file');
  assert.match(scripts.test!, /npm run test:resume/);
});
