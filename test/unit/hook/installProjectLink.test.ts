// `hook install|uninstall --scope project` in a cloned project whose settings file (or .claude/.codex) links out of it:
// refused in one line, the user's file untouched; a link inside the project and user-scope links are still followed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { HookSettingsError, installHook, uninstallHook } from '../../../src/node/hooks/install';
import { cliArgv, REPO } from '../../support/cliProcess';
import { tmpDir } from '../../support/tmp';

const CMD = '"/usr/bin/node" "/opt/cc/dist/cli.js" hook claude-code';
const MINE = '{\n  "editor.fontSize": 14,\n  "api": { "token": "placeholder" }\n}\n';
const hash = (p: string): string => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
const TSX = pathToFileURL(require.resolve('tsx', { paths: [REPO] })).href;
const ls = (dir: string): string[] => fs.readdirSync(dir).sort();

/** A project folder and, beside it, a folder of the user's with a JSON file a link in the project points at. */
function setUp(t: Parameters<typeof tmpDir>[0]): { project: string; home: string; mine: string } {
  const dir = tmpDir(t);
  const project = path.join(dir, 'cloned');
  const home = path.join(dir, 'home');
  fs.mkdirSync(project);
  fs.mkdirSync(home);
  const mine = path.join(home, 'settings.json');
  fs.writeFileSync(mine, MINE);
  return { project, home, mine };
}

for (const [agent, folder, name] of [['claude-code', '.claude', 'settings.json'], ['codex', '.codex', 'hooks.json']] as const) {
  test(`${agent}: project ${folder}/${name} linked to a JSON file outside the project is refused, the file unchanged`, async (t) => {
    const { project, home, mine } = setUp(t);
    fs.mkdirSync(path.join(project, folder));
    const file = path.join(project, folder, name);
    fs.symlinkSync(mine, file);
    const before = hash(mine);
    for (const run of [() => installHook(agent, 'project', project, {}, CMD), () => uninstallHook(agent, 'project', project, {})]) {
      await assert.rejects(run(), (e: unknown) => e instanceof HookSettingsError && e.message === `${file} is a link to ${fs.realpathSync(mine)}, outside the project; left unchanged`);
    }
    assert.equal(hash(mine), before);
    assert.deepEqual(ls(home), ['settings.json'], 'no temp or lock file left beside the target');
    assert.ok(fs.lstatSync(file).isSymbolicLink());
  });

  test(`${agent}: project ${folder} itself a link to a folder outside the project is refused, with or without ${name} there`, async (t) => {
    const { project, home, mine } = setUp(t);
    fs.renameSync(mine, path.join(home, name));
    fs.symlinkSync(home, path.join(project, folder));
    const before = hash(path.join(home, name));
    const refused = (e: unknown): boolean => e instanceof HookSettingsError && e.message === `${path.join(project, folder)} is a link to ${fs.realpathSync(home)}, outside the project; left unchanged`;
    await assert.rejects(installHook(agent, 'project', project, {}, CMD), refused);
    await assert.rejects(uninstallHook(agent, 'project', project, {}), refused);
    assert.equal(hash(path.join(home, name)), before);
    fs.rmSync(path.join(home, name));
    await assert.rejects(installHook(agent, 'project', project, {}, CMD), refused);
    assert.deepEqual(ls(home), [], 'no settings file created in the folder the link points at');
  });
}

test('project settings.json a dangling link: refused, nothing created where it points', async (t) => {
  const { project, home } = setUp(t);
  fs.mkdirSync(path.join(project, '.claude'));
  const file = path.join(project, '.claude', 'settings.json');
  fs.symlinkSync(path.join(home, 'new.json'), file);
  await assert.rejects(installHook('claude-code', 'project', project, {}, CMD), (e: unknown) => e instanceof HookSettingsError && e.message === `${file} is a link that leads nowhere; left unchanged`);
  assert.deepEqual(ls(home), ['settings.json']);
});

test('project settings.json a link to a file inside the project: followed, the link kept', async (t) => {
  const { project } = setUp(t);
  fs.mkdirSync(path.join(project, '.claude'));
  fs.mkdirSync(path.join(project, 'config'));
  const real = path.join(project, 'config', 'claude.json');
  fs.writeFileSync(real, '{"model":"opus"}\n');
  const file = path.join(project, '.claude', 'settings.json');
  fs.symlinkSync(path.join('..', 'config', 'claude.json'), file);
  assert.equal((await installHook('claude-code', 'project', project, {}, CMD)).changed, true);
  assert.ok(fs.lstatSync(file).isSymbolicLink());
  const written = JSON.parse(fs.readFileSync(real, 'utf8')) as { model: string; hooks: { SessionStart: { hooks: { command: string }[] }[] } };
  assert.equal(written.model, 'opus');
  assert.deepEqual(written.hooks.SessionStart.flatMap((g) => g.hooks.map((h) => h.command)), [CMD]);
  assert.equal((await uninstallHook('claude-code', 'project', project, {})).changed, true);
  assert.deepEqual(JSON.parse(fs.readFileSync(real, 'utf8')), { model: 'opus' });
});

test('a project reached through a symlinked path: its own .claude is inside it, not refused', async (t) => {
  const { project, home } = setUp(t);
  const alias = path.join(home, 'alias');
  fs.symlinkSync(project, alias);
  assert.equal((await installHook('claude-code', 'project', alias, {}, CMD)).changed, true);
  assert.ok(fs.existsSync(path.join(project, '.claude', 'settings.json')));
});

test('user scope: a settings file linked anywhere (dotfiles) is still followed', async (t) => {
  const { project, home, mine } = setUp(t);
  const config = path.join(project, 'codex-home');
  fs.mkdirSync(config);
  fs.symlinkSync(mine, path.join(config, 'hooks.json'));
  assert.equal((await installHook('codex', 'user', project, { CODEX_HOME: config }, CMD)).changed, true);
  assert.notEqual(fs.readFileSync(mine, 'utf8'), MINE, 'the file the link points at was edited');
  assert.ok(fs.lstatSync(path.join(config, 'hooks.json')).isSymbolicLink());
  assert.deepEqual(ls(home), ['settings.json']);
});

test('the CLI: `hook install|uninstall --scope project` through such a link exits 2 with one line, the file unchanged', (t) => {
  const { project, mine } = setUp(t);
  fs.mkdirSync(path.join(project, '.claude'));
  fs.symlinkSync(mine, path.join(project, '.claude', 'settings.json'));
  const before = hash(mine);
  for (const verb of ['install', 'uninstall']) {
    const [cmd, ...rest] = cliArgv(['hook', verb, 'claude-code', '--scope', 'project']);
    // --import tsx is resolved from the working folder: the project has no node_modules, so give tsx's full path.
    const r = spawnSync(cmd!, rest.map((a) => (a === 'tsx' ? TSX : a)), { cwd: project, env: { ...process.env, HOME: path.dirname(mine) }, encoding: 'utf8' });
    assert.equal(r.status, 2, `${verb}: ${r.stderr}`);
    assert.match(r.stderr, /^context-compactor: .*settings\.json is a link to .*, outside the project; left unchanged\n$/);
    assert.equal(r.stdout, '');
  }
  assert.equal(hash(mine), before);
});
