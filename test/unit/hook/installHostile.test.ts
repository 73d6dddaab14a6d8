// `hook install|uninstall` on settings files as users keep them: a symlink into dotfiles, a BOM, read-only, odd paths.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { hookCommand, HookSettingsError, installHook, uninstallHook } from '../../../src/node/hooks/install';
import { tmpDir } from '../../support/tmp';

const CMD = '"/usr/bin/node" "/opt/cc/dist/cli.js" hook claude-code';
const ours = (s: { hooks?: { SessionStart?: { hooks: { command: string }[] }[] } }): string[] =>
  (s.hooks?.SessionStart ?? []).flatMap((g) => g.hooks.map((h) => h.command));

test('settings.json a symlink into a dotfiles folder: edited where it points, the link kept', async (t) => {
  const dir = tmpDir(t);
  const dotfiles = path.join(dir, 'dotfiles');
  const config = path.join(dir, 'claude');
  fs.mkdirSync(dotfiles);
  fs.mkdirSync(config);
  fs.writeFileSync(path.join(dotfiles, 'settings.json'), '{"model":"opus"}\n');
  fs.symlinkSync(path.join(dotfiles, 'settings.json'), path.join(config, 'settings.json'));
  const env = { CLAUDE_CONFIG_DIR: config };
  const r = await installHook('claude-code', 'user', dir, env, CMD);
  assert.equal(r.changed, true);
  assert.ok(fs.lstatSync(path.join(config, 'settings.json')).isSymbolicLink(), 'the link is still a link');
  const written = JSON.parse(fs.readFileSync(path.join(dotfiles, 'settings.json'), 'utf8'));
  assert.equal(written.model, 'opus');
  assert.deepEqual(ours(written), [CMD]);
  assert.equal((await uninstallHook('claude-code', 'user', dir, env)).changed, true);
  assert.ok(fs.lstatSync(path.join(config, 'settings.json')).isSymbolicLink());
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dotfiles, 'settings.json'), 'utf8')), { model: 'opus' });
});

test('a settings file with a byte-order mark is read, and written back with it', async (t) => {
  const dir = tmpDir(t);
  const file = path.join(dir, 'settings.json');
  fs.writeFileSync(file, '\uFEFF{"model":"opus"}\n');
  assert.equal((await installHook('claude-code', 'user', dir, { CLAUDE_CONFIG_DIR: dir }, CMD)).changed, true);
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.startsWith('\uFEFF{'));
  assert.deepEqual(ours(JSON.parse(text.slice(1))), [CMD]);
});

test('a read-only settings file: one line, the file untouched', async (t) => {
  const dir = tmpDir(t);
  const file = path.join(dir, 'settings.json');
  fs.writeFileSync(file, '{"model":"opus"}\n');
  fs.chmodSync(file, 0o444);
  await assert.rejects(installHook('claude-code', 'user', dir, { CLAUDE_CONFIG_DIR: dir }, CMD), (e: Error) => e instanceof HookSettingsError && /is read-only; left unchanged$/.test(e.message));
  assert.equal(fs.readFileSync(file, 'utf8'), '{"model":"opus"}\n');
  assert.equal(fs.statSync(file).mode & 0o777, 0o444);
});

test('the command a POSIX shell runs reaches paths with spaces, quotes, $ and backticks as they are', (t) => {
  const dir = path.join(tmpDir(t), 'a b$HOME`id`"q\'\\z');
  fs.mkdirSync(dir);
  const script = path.join(dir, 'cli.js');
  fs.writeFileSync(script, 'process.stdout.write(JSON.stringify(process.argv.slice(1)));\n');
  const out = execFileSync('/bin/sh', ['-c', hookCommand('claude-code', process.execPath, script)], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), [script, 'hook', 'claude-code']);
});

test("another tool's hook that also ends in `cli.js hook claude-code` is not ours: install and uninstall leave it", async (t) => {
  const dir = tmpDir(t);
  const file = path.join(dir, 'settings.json');
  const foreign = ['node /opt/other-tool/dist/cli.js hook claude-code', '/usr/local/bin/mycli.js hook claude-code'];
  const theirs = { hooks: { SessionStart: [{ matcher: 'compact', hooks: foreign.map((command) => ({ type: 'command', command })) }] } };
  fs.writeFileSync(file, JSON.stringify(theirs));
  const env = { CLAUDE_CONFIG_DIR: dir };
  await installHook('claude-code', 'user', dir, env, hookCommand('claude-code', '/usr/bin/node', 'C:\\Users\\me\\cc\\dist\\cli.js'));
  assert.deepEqual(ours(JSON.parse(fs.readFileSync(file, 'utf8'))), [...foreign, '"/usr/bin/node" "C:\\\\Users\\\\me\\\\cc\\\\dist\\\\cli.js" hook claude-code']);
  assert.equal((await uninstallHook('claude-code', 'user', dir, env)).changed, true, 'ours (a Windows path, escaped) is found again');
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), theirs);
});

test('CLAUDE_CONFIG_DIR is one folder, as Claude Code reads it: a comma in its name is part of the name', async (t) => {
  const config = path.join(tmpDir(t), 'work,personal');
  const r = await installHook('claude-code', 'user', '/', { CLAUDE_CONFIG_DIR: config }, CMD);
  assert.equal(r.file, path.join(config, 'settings.json'));
  assert.deepEqual(ours(JSON.parse(fs.readFileSync(r.file, 'utf8'))), [CMD]);
});
