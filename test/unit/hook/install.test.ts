// `hook install|uninstall`: our SessionStart "compact" entry in, then out, every other hook and key as it was.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { isOurCommand, withHook } from '../../../src/core/hook/settings';
import { hookCommandForRuntime, hookSettingsPath, installHook, uninstallHook } from '../../../src/node/hooks/install';
import { tmpDir } from '../../support/tmp';

async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env });
  return { code, stdout, stderr };
}

/** A settings file as users have them: other keys, a hook of their own on SessionStart (startup) and on PreToolUse. */
const THEIRS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/audit' }] }],
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hello' }] }],
  },
  statusLine: { type: 'command', command: 'status.sh' },
};

test('install adds one compact entry with absolute node and CLI paths; again is a no-op; uninstall gives the file back', async (t) => {
  const dir = tmpDir(t);
  const env = { CLAUDE_CONFIG_DIR: dir, HOME: path.join(dir, 'home') };
  const file = path.join(dir, 'settings.json');
  fs.writeFileSync(file, JSON.stringify(THEIRS, null, 2));
  const r = await cli(env, 'hook', 'install', 'claude-code');
  assert.equal(r.code, 0, r.stderr);
  const after = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof THEIRS & { hooks: { SessionStart: { matcher: string; hooks: { type: string; command: string }[] }[] } };
  assert.deepEqual(Object.keys(after), Object.keys(THEIRS), 'keys stay, in their order');
  assert.deepEqual(after.hooks.PreToolUse, THEIRS.hooks.PreToolUse);
  assert.deepEqual(after.hooks.SessionStart[0], THEIRS.hooks.SessionStart[0]);
  assert.equal(after.hooks.SessionStart.length, 2);
  const ours = after.hooks.SessionStart[1]!;
  assert.equal(ours.matcher, 'compact');
  assert.equal(ours.hooks.length, 1);
  assert.equal(ours.hooks[0]!.type, 'command');
  const [, node, script] = /^"([^"]+)" "([^"]+)" hook claude-code$/.exec(ours.hooks[0]!.command) ?? [];
  assert.equal(node, process.execPath);
  assert.ok(script && path.isAbsolute(script) && script.endsWith(path.join('dist', 'cli.js')), ours.hooks[0]!.command);

  const bytes = fs.readFileSync(file, 'utf8');
  const again = await cli(env, 'hook', 'install', 'claude-code');
  assert.equal(again.code, 0);
  assert.match(again.stdout, /already installed/);
  assert.equal(fs.readFileSync(file, 'utf8'), bytes, 'idempotent: the file is not rewritten');

  const un = await cli(env, 'hook', 'uninstall', 'claude-code');
  assert.equal(un.code, 0, un.stderr);
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), THEIRS);
  const unAgain = await cli(env, 'hook', 'uninstall', 'claude-code');
  assert.match(unAgain.stdout, /nothing changed/);
});

test('a missing settings file is created; uninstall then leaves an empty object, no empty hooks', async (t) => {
  const dir = tmpDir(t);
  const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'new-config') };
  const change = await installHook('claude-code', 'user', dir, env, '"/n" "/c/cli.js" hook claude-code');
  assert.equal(change.file, path.join(dir, 'new-config', 'settings.json'));
  assert.deepEqual(JSON.parse(fs.readFileSync(change.file, 'utf8')), { hooks: { SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command: '"/n" "/c/cli.js" hook claude-code' }] }] } });
  await uninstallHook('claude-code', 'user', dir, env);
  assert.deepEqual(JSON.parse(fs.readFileSync(change.file, 'utf8')), {});
});

test('an entry of ours with other paths (an older install) is replaced, not doubled', () => {
  const old = { hooks: { SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command: 'echo keep' }, { type: 'command', command: '"/old/node" "/old/dist/cli.js" hook claude-code' }] }] } };
  const edit = withHook(old, 'claude-code', '"/new/node" "/new/dist/cli.js" hook claude-code');
  assert.ok(edit.ok && edit.changed);
  assert.deepEqual(edit.settings, { hooks: { SessionStart: [
    { matcher: 'compact', hooks: [{ type: 'command', command: 'echo keep' }] },
    { matcher: 'compact', hooks: [{ type: 'command', command: '"/new/node" "/new/dist/cli.js" hook claude-code' }] },
  ] } });
  assert.ok(!isOurCommand('"/new/node" "/new/dist/cli.js" hook codex', 'claude-code'), 'another agent\'s entry is not ours');
  assert.ok(isOurCommand('context-compactor hook claude-code', 'claude-code'));
});

test('project scope writes <cwd>/.claude/settings.json; Codex uses hooks.json in CODEX_HOME or <cwd>/.codex', () => {
  assert.equal(hookSettingsPath('claude-code', 'project', '/w', {}), path.join('/w', '.claude', 'settings.json'));
  assert.equal(hookSettingsPath('claude-code', 'user', '/w', { HOME: '/h' }), path.join('/h', '.claude', 'settings.json'));
  assert.equal(hookSettingsPath('claude-code', 'user', '/w', { HOME: '/h', CLAUDE_CONFIG_DIR: '/cfg' }), path.join('/cfg', 'settings.json'));
  assert.equal(hookSettingsPath('codex', 'user', '/w', { CODEX_HOME: '/cx' }), path.join('/cx', 'hooks.json'));
  assert.equal(hookSettingsPath('codex', 'project', '/w', {}), path.join('/w', '.codex', 'hooks.json'));
});

test('a malformed settings file: one line, exit 2, the file untouched', async (t) => {
  const dir = tmpDir(t);
  const env = { CLAUDE_CONFIG_DIR: dir };
  const file = path.join(dir, 'settings.json');
  for (const text of ['{ "model": "opus", // mine\n}', '[1, 2]', '{"hooks": []}', '{"hooks": {"SessionStart": {"matcher": "x"}}}']) {
    fs.writeFileSync(file, text);
    for (const verb of ['install', 'uninstall']) {
      const r = await cli(env, 'hook', verb, 'claude-code');
      assert.equal(r.code, 2, text);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /left unchanged/);
      assert.equal(fs.readFileSync(file, 'utf8'), text);
    }
  }
});

test('bad arguments: one line and the usage, exit 2', async () => {
  for (const args of [['hook'], ['hook', 'aider'], ['hook', 'install'], ['hook', 'install', 'claude-code', '--scope', 'global'], ['hook', 'claude-code', 'extra']]) {
    const r = await cli({}, ...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /^context-compactor hook[^\n]*\nusage:/);
  }
});

test('the hook runs with Node: the running node, else node on PATH, else the editor binary as Node (POSIX only)', () => {
  const none = (): boolean => false;
  assert.equal(hookCommandForRuntime('claude-code', '/usr/bin/node', '/s/h.js', {}, 'linux', none), '"/usr/bin/node" "/s/h.js" hook claude-code');
  assert.equal(hookCommandForRuntime('claude-code', '/opt/code/code', '/s/h.js', { PATH: '/a:/b' }, 'linux', (p) => p === '/b/node'), '"/b/node" "/s/h.js" hook claude-code');
  const electron = hookCommandForRuntime('claude-code', '/opt/code/code', '/s/context-compactor-hook.js', { PATH: '/a' }, 'linux', none);
  assert.equal(electron, 'ELECTRON_RUN_AS_NODE=1 "/opt/code/code" "/s/context-compactor-hook.js" hook claude-code');
  assert.ok(isOurCommand(electron, 'claude-code'), 'uninstall finds it again');
  assert.equal(hookCommandForRuntime('claude-code', 'C:\\Code\\Code.exe', 'C:\\s\\h.js', { Path: 'C:\\x' }, 'win32', none), undefined);
});
