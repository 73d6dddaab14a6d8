// Runs every test/unit/**/*.test.ts under node:test with tsx; Node 20's --test takes no globs, so list them here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = 'test/unit';
const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.join(root, f))
  .sort();
if (files.length === 0) {
  console.error(`no *.test.ts files under ${root}`);
  process.exit(1);
}
// TZ pinned so date formatting in reports is the same on every machine.
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...process.argv.slice(2), ...files], {
  stdio: 'inherit',
  env: { ...process.env, TZ: 'UTC' },
});
process.exit(run.status ?? 1);
