// Per-test temporary folders, removed when the test ends.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';

export function tmpDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
