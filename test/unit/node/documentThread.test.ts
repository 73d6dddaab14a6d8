// The extension host reads document sessions (here a 10 MB Cline task made from the real Cline CLI task fixture) on
// the document thread (dist/documentWorker.js, bundled here as esbuild.mjs does): the main thread keeps turning while
// one is read, which it cannot do while the same session is read on it. Counted in event-loop turns, not in time.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { buildSync } from 'esbuild';
import { useDocumentThread } from '../../../src/node/documentThread';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { scanUsage } from '../../../src/node/usage/scanner';
import { CLINE_4TURNS, CLINE_REAL } from '../../support/clineFixtures';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REPO = path.resolve(__dirname, '../../..');

function bundleWorker(t: TestContext): string {
  const script = path.join(tmpDir(t), 'documentWorker.js');
  buildSync({ entryPoints: [path.join(REPO, 'src/node/documentWorker.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: script, logLevel: 'error' });
  return script;
}

/**
 * A home whose Cline CLI store holds one task of `copies` × the fixture's conversation (the same turns over and over:
 * ~230 KB of API history and ~280 KB of UI messages each).
 */
function bigTaskHome(t: TestContext, copies: number): { home: string; task: string } {
  const home = tmpDir(t);
  const task = path.join(home, '.cline', 'data', 'tasks', path.basename(CLINE_4TURNS));
  fs.cpSync(CLINE_4TURNS, task, { recursive: true });
  for (const name of ['api_conversation_history.json', 'ui_messages.json']) {
    const items = JSON.parse(fs.readFileSync(path.join(task, name), 'utf8')) as unknown[];
    fs.writeFileSync(path.join(task, name), JSON.stringify(Array.from({ length: copies }, () => items).flat()));
  }
  return { home, task };
}

/** Event-loop turns (setImmediate callbacks) taken while `work` runs, and its result. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ turns: number; result: T }> {
  let turns = 0;
  let running = true;
  const spin = (): void => { if (running) { turns++; setImmediate(spin); } };
  setImmediate(spin);
  try {
    const result = await work();
    return { turns, result };
  } finally {
    running = false;
  }
}

test('a 10 MB Cline task opened on the document thread: the main thread keeps turning, the session is the same', async (t) => {
  const { task } = bigTaskHome(t, 20);
  const size = ['api_conversation_history.json', 'ui_messages.json'].reduce((n, f) => n + fs.statSync(path.join(task, f)).size, 0);
  assert.ok(size > 10e6, `${size} bytes`);
  const here = await turnsDuring(() => readTranscriptFile(task));
  assert.equal(here.turns, 0, 'read on this thread, the whole session is one synchronous block');
  const thread = useDocumentThread(bundleWorker(t));
  try {
    const there = await turnsDuring(() => readTranscriptFile(task));
    t.diagnostic(`turns while read: ${here.turns} on this thread, ${there.turns} on the worker`);
    assert.equal(thread.answered(), 1, 'the worker read it');
    assert.ok(there.turns >= 20, `${there.turns} event-loop turns while the worker read the session`);
    assert.ok(there.result.session.messages.length > 100);
    // Read for viewing, it comes without the writer's data (Session.extra), which is all that differs.
    assert.deepStrictEqual(there.result.session.extra, {});
    assert.deepStrictEqual(there.result, { ...here.result, session: { ...here.result.session, extra: {} } });
  } finally {
    await thread.dispose();
  }
});

test("the usage scan (the Sessions view's) lists and reads store sessions on the document thread: the same report", async (t) => {
  const { home } = bigTaskHome(t, 20);
  const scan = () => turnsDuring(() => scanUsage({ env: { HOME: home }, useCache: false, worker: 'never' }));
  const here = await scan();
  const thread = useDocumentThread(bundleWorker(t));
  try {
    const there = await scan();
    t.diagnostic(`turns while scanned: ${here.turns} on this thread, ${there.turns} on the worker`);
    // Every document root is listed there (each a job, found or not) and the one task read there.
    assert.ok(thread.answered() > 1, `${thread.answered()} jobs answered by the worker`);
    assert.equal(there.result.stats.documentsRead, 1);
    assert.equal(there.result.report.sessions.length, 1);
    assert.deepStrictEqual(there.result.report, here.result.report);
    // The scan yields between folders and sessions on either thread; only on the worker does the read itself leave room.
    assert.ok(there.turns >= here.turns + 20, `${there.turns} turns with the worker, ${here.turns} without`);
  } finally {
    await thread.dispose();
  }
});

test('a session the worker cannot read is a one-line error, as on this thread', async (t) => {
  const { task } = bigTaskHome(t, 1);
  fs.writeFileSync(path.join(task, 'api_conversation_history.json'), '[{"role": "user", "content": ');
  const here = await readTranscriptFile(task).then(() => '', (e: Error) => e.message);
  const thread = useDocumentThread(bundleWorker(t));
  try {
    const there = await readTranscriptFile(task).then(() => '', (e: Error) => e.message);
    assert.match(there, /^cannot read /);
    assert.doesNotMatch(there, /\n/);
    assert.equal(there, here);
  } finally {
    await thread.dispose();
  }
});

test('a worker that dies holding a job fails that read in one line; the host goes on', async (t) => {
  const { task } = bigTaskHome(t, 1);
  const script = path.join(tmpDir(t), 'dies.js');
  // Takes the job and exits without answering, as a worker out of memory on a hostile store would.
  fs.writeFileSync(script, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
  const thread = useDocumentThread(script);
  try {
    const message = await readTranscriptFile(task).then(() => '', (e: Error) => e.message);
    assert.equal(message, `cannot read ${task}: the reading thread stopped (exit code 3)`);
  } finally {
    await thread.dispose();
  }
  assert.ok((await readTranscriptFile(task)).session.messages.length > 0, 'read here once the thread is gone');
});

test("every document agent's session comes back from the worker as read here: whole for a write, without the writer's data for viewing", async (t) => {
  const sessions = [
    path.join(FIXTURES, 'goose', 'sessions-1.37.0', 'sessions.db'),
    path.join(FIXTURES, 'goose', 'export-1.37.0.json'),
    path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db'),
    path.join(FIXTURES, 'opencode', 'export-1.18.33.json'),
    CLINE_REAL,
    path.join(FIXTURES, 'real', 'gemini-cli', 'idaho-nover-session-summary-toolcalls.json'),
    path.join(FIXTURES, 'real', 'copilot-chat', 'gitai-0.31.5-claude-sonnet-4-agent.json'),
    `${path.join(FIXTURES, 'real', 'aider', 'zen-mcp-0.86.1-4sessions-commands.aider.chat.history.md')}#2`,
  ];
  const read = (keepRaw: boolean) => Promise.all(sessions.map((p) => readTranscriptFile(p, { keepRaw })));
  const here = [await read(false), await read(true)];
  const thread = useDocumentThread(bundleWorker(t));
  try {
    const there = [await read(false), await read(true)];
    assert.equal(thread.answered(), sessions.length * 2);
    for (const [k, keep] of here.entries()) {
      for (const [i, r] of keep.entries()) {
        assert.ok(r.session.messages.length > 0, sessions[i]);
        // Read for viewing (keepRaw false) it comes without the writer's data; read for a write, whole.
        const expected = k === 1 ? r : { ...r, session: { ...r.session, extra: {} } };
        assert.deepStrictEqual(there[k]![i], expected, `${sessions[i]} (keepRaw ${k === 1})`);
      }
    }
  } finally {
    await thread.dispose();
  }
});
