// Sessions are read from regular files only: a FIFO or a link to a device, as a member of a Cline task folder or an
// OpenCode storage/ tree, or named on the command line, is refused or skipped with a warning — never opened, so
// never a hang or an endless read. Each run is a child process with a timeout, so a regression fails, not hangs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REPO = resolve(__dirname, '../../..');

/** The CLI from sources, killed after 60 s (a hang shows as a signal, not as a stuck test run). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; signal: string | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'src/cli/main.ts'), ...args], {
    cwd: REPO, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL', maxBuffer: 64 << 20,
    env: { PATH: process.env.PATH, HOME: env.HOME ?? '/nonexistent', ...env },
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

const mkfifo = (p: string): void => {
  const r = spawnSync('mkfifo', [p]);
  assert.equal(r.status, 0, `mkfifo ${p}`);
};

/** A copy of a real Cline task folder with ui_messages.json a FIFO and task_metadata.json a link to /dev/zero. */
function hostileTask(dir: string): string {
  const task = join(dir, 'tasks', '1796291786979');
  cpSync(join(FIXTURES, 'cline', 'cli-2.18.0-4turns', 'tasks', '1796291786979'), task, { recursive: true });
  rmSync(join(task, 'ui_messages.json'), { force: true });
  mkfifo(join(task, 'ui_messages.json'));
  rmSync(join(task, 'task_metadata.json'), { force: true });
  symlinkSync('/dev/zero', join(task, 'task_metadata.json'));
  return task;
}

test('a Cline task folder whose members are a FIFO and a /dev/zero link: read, those two skipped with warnings', (t) => {
  const task = hostileTask(tmpDir(t));
  const r = cli(['inspect', task, '--json']);
  assert.equal(r.signal, null, 'finished on its own');
  assert.equal(r.status, 0, r.stderr);
  const warnings = (JSON.parse(r.stdout) as { warnings: string[] }).warnings.join('\n');
  assert.match(warnings, /ui_messages\.json is a FIFO, not a regular file; skipped/);
  assert.match(warnings, /task_metadata\.json is a device, not a regular file; skipped/);
});

test('an explicit FIFO path: one line, exit 2, no hang', (t) => {
  const f = join(tmpDir(t), 'f.jsonl');
  mkfifo(f);
  const r = cli(['inspect', f]);
  assert.equal(r.signal, null, 'finished on its own');
  assert.equal(r.status, 2);
  assert.match(r.stderr.trim(), /f\.jsonl is a FIFO, not a regular file$/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});

test('an OpenCode storage/ tree with a FIFO part file: read, that part skipped with a warning', (t) => {
  const storage = join(tmpDir(t), 'storage');
  cpSync(join(FIXTURES, 'opencode', 'storage-1.1.65'), storage, { recursive: true });
  const partDirs = join(storage, 'part');
  const first = spawnSync('find', [partDirs, '-name', '*.json', '-type', 'f'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort()[0]!;
  rmSync(first);
  mkfifo(first);
  const session = spawnSync('find', [join(storage, 'session'), '-name', 'ses_*.json'], { encoding: 'utf8' }).stdout.trim().split('\n')[0]!;
  const r = cli(['inspect', session, '--json']);
  assert.equal(r.signal, null, 'finished on its own');
  assert.equal(r.status, 0, r.stderr);
  assert.match((JSON.parse(r.stdout) as { warnings: string[] }).warnings.join('\n'), /is a FIFO, not a regular file; skipped/);
});

test("usage's scan of ~/.cline/data with a FIFO and a /dev/zero link in a task: finishes, the task still counted", (t) => {
  const home = tmpDir(t);
  const data = join(home, '.cline', 'data');
  mkdirSync(data, { recursive: true });
  hostileTask(data);
  assert.ok(existsSync(join(data, 'tasks', '1796291786979', 'api_conversation_history.json')));
  const r = cli(['usage', '--json', '--no-cache'], { HOME: home, XDG_CACHE_HOME: join(home, '.cache') });
  assert.equal(r.signal, null, 'finished on its own');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { sessions: { path?: string; file?: string }[] };
  assert.ok(JSON.stringify(out.sessions).includes('1796291786979'), 'the task is among the sessions');
});
