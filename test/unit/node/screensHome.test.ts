// The home `npm run screens` builds (test/integration/screens/home.mjs): every agent's real sessions where its scan finds them.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { scanUsage } from '../../../src/node/usage/scanner';
import { tmpDir } from '../../support/tmp';

const root = path.resolve(__dirname, '../../..');
type Home = (root: string, dir: string, workspace: string, options?: { corpus?: boolean }) => Record<string, string>;

test('the screens home: sessions of eight agents where their scan finds them, none from the machine, dated as recorded', async (t) => {
  const dir = tmpDir(t);
  const workspace = path.join(dir, 'my-project');
  fs.mkdirSync(workspace);
  const { screensHome } = (await import(pathToFileURL(path.join(root, 'test/integration/screens/home.mjs')).href)) as { screensHome: Home };
  // The repository's own sessions only: npm test reads nothing outside the repository.
  const env = screensHome(root, dir, workspace, { corpus: false });
  // HOME is an empty folder: whatever the scan finds comes from the variables the home sets (and the workspace).
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  const { report } = await scanUsage({ env: { ...env, HOME: home }, extraDirs: [workspace], useCache: false });
  const agents = new Set(report.sessions.map((s) => s.agent));
  for (const agent of ['claude-code', 'codex', 'gemini-cli', 'opencode', 'goose', 'aider', 'copilot-chat', 'cline']) {
    assert.ok(agents.has(agent as never), `${agent} sessions in the home (have ${[...agents].join(', ')})`);
  }
  for (const s of report.sessions) assert.ok(s.file.startsWith(dir), `${s.file} is a copy in the throwaway home`);
  // Copies carry their recorded time, not the copy's: the view's dates and "most recent" are the sessions' own.
  const dated = report.sessions.filter((s) => (s.agent === 'claude-code' || s.agent === 'codex') && s.lastTimestamp);
  assert.ok(dated.length >= 10, `${dated.length} Claude Code and Codex sessions with a recorded time`);
  const copiedAt = Date.now();
  for (const s of dated) {
    // The newest time the file records (a late record without usage may follow the last request), never the copy's.
    const mtime = fs.statSync(s.file).mtimeMs;
    assert.ok(mtime >= Date.parse(s.lastTimestamp!) - 60_000 && mtime < copiedAt - 86_400_000, `${s.file}: ${new Date(mtime).toISOString()} vs ${s.lastTimestamp}`);
  }
});
