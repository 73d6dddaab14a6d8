// Cline / Roo Code / Kilo Code places: every editor's globalStorage on Linux, macOS and Windows and the CLI's folder;
// the usage scan (Sessions view and `usage`) finds tasks there with the tokens api_req_started recorded.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { cline } from '../../../src/core/formats/cline/agent';
import { scanUsage } from '../../../src/node/usage/scanner';
import { CLINE_4TURNS, CLINE_REAL, ROO_CONDENSED } from '../../support/clineFixtures';
import { tmpDir } from '../../support/tmp';

const host = (platform: string, home: string, vars: Record<string, string> = {}): HostEnv => {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return { home, vars, platform, join: p.join, basename: p.basename };
};

/** What the task's UI log recorded for its requests, read from the raw JSON (not through our reader). */
function recorded(task: string): { input: number; output: number; cacheRead: number; cost: number } {
  const ui = JSON.parse(fs.readFileSync(path.join(task, 'ui_messages.json'), 'utf8')) as { say?: string; text?: string }[];
  const reqs = ui.filter((m) => m.say === 'api_req_started').map((m) => JSON.parse(m.text!) as Record<string, number | undefined>);
  const sum = (k: string): number => reqs.reduce((a, r) => a + (r[k] ?? 0), 0);
  return { input: sum('tokensIn'), output: sum('tokensOut'), cacheRead: sum('cacheReads'), cost: sum('cost') };
}

describe('cline places', () => {
  it('covers VS Code, Insiders, Cursor, Windsurf, VSCodium, remote servers and code-server on Linux', () => {
    const roots = cline.roots(host('linux', '/home/u'));
    for (const editor of ['Code', 'Code - Insiders', 'Cursor', 'Windsurf', 'VSCodium']) {
      assert.ok(roots.includes(`/home/u/.config/${editor}/User/globalStorage/saoudrizwan.claude-dev/tasks`), editor);
    }
    assert.ok(roots.includes('/home/u/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks'));
    assert.ok(roots.includes('/home/u/.config/Cursor/User/globalStorage/kilocode.kilo-code/tasks'));
    assert.ok(roots.includes('/home/u/.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks'));
    assert.ok(roots.includes('/home/u/.local/share/code-server/User/globalStorage/kilocode.kilo-code/tasks'));
    assert.ok(roots.includes('/home/u/.cline/data/tasks'));
    assert.ok(cline.roots(host('linux', '/home/u', { XDG_CONFIG_HOME: '/x' })).includes('/x/Code/User/globalStorage/saoudrizwan.claude-dev/tasks'));
    assert.ok(cline.roots(host('linux', '/home/u', { CLINE_DIR: '/c' })).includes('/c/data/tasks'));
  });

  it('covers macOS Application Support and Windows %APPDATA%', () => {
    const mac = cline.roots(host('darwin', '/Users/u'));
    assert.ok(mac.includes('/Users/u/Library/Application Support/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks'));
    assert.ok(mac.includes('/Users/u/Library/Application Support/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/tasks'));
    const win = cline.roots(host('win32', 'C:\\Users\\u', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }));
    assert.ok(win.includes('C:\\Users\\u\\AppData\\Roaming\\Windsurf\\User\\globalStorage\\kilocode.kilo-code\\tasks'));
    assert.ok(win.includes('C:\\Users\\u\\AppData\\Roaming\\VSCodium\\User\\globalStorage\\saoudrizwan.claude-dev\\tasks'));
    assert.ok(win.includes('C:\\Users\\u\\.cline\\data\\tasks'));
    assert.ok(win.every((r) => !r.includes('/')), 'Windows paths only');
  });

  it('the usage scan finds Cline in VS Code, Roo Code in Cursor, Kilo Code in code-server, with the tokens Cline recorded', async (t) => {
    const home = fs.realpathSync(tmpDir(t));
    const place = (dir: string, task: string): string => {
      const to = path.join(home, dir, path.basename(task));
      fs.cpSync(task, to, { recursive: true });
      return to;
    };
    const inCode = place('.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks', CLINE_4TURNS);
    const inCursor = place('.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks', ROO_CONDENSED);
    const inCodeServer = place('.local/share/code-server/User/globalStorage/kilocode.kilo-code/tasks', CLINE_REAL);
    fs.mkdirSync(path.join(home, '.cline/data/tasks/_index'), { recursive: true });
    const env = { HOME: home };
    const { report } = await scanUsage({ env, useCache: false });
    const found = report.sessions.filter((s) => s.agent === 'cline');
    assert.deepEqual(found.map((s) => s.file).sort(), [inCode, inCursor, inCodeServer].sort(), 'three tasks; `_index` is not one');
    const cli = found.find((s) => s.file === inCode)!;
    const want = recorded(CLINE_4TURNS);
    assert.equal(cli.outputTokens, want.output, 'output tokens as api_req_started recorded them');
    assert.equal(cli.cacheReadTokens, want.cacheRead);
    assert.deepEqual(cli.models, ['claude-sonnet-4-5-20250929']);
    assert.ok(cli.cost !== undefined && Math.abs(cli.cost - want.cost) / want.cost < 0.05, `catalog price ${cli.cost} vs Cline's recorded ${want.cost}`);
    assert.ok(cli.contextTokens !== undefined && cli.contextTokens > 0);
  });
});
