// `hook install --scope project` in a cloned project whose .claude/settings.json is a FIFO or a link to /dev/zero:
// one line, never opened (a FIFO blocked the install forever; /dev/zero grew to 600 MB before failing).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { HookSettingsError, installHook, uninstallHook } from '../../../src/node/hooks/install';
import { tmpDir } from '../../support/tmp';

const CMD = '"/usr/bin/node" "/opt/cc/dist/cli.js" hook claude-code';

for (const [kind, plant, said] of [
  ['a FIFO', (p: string) => assert.equal(spawnSync('mkfifo', [p]).status, 0, 'mkfifo'), 'is a FIFO, not a regular file'],
  // Leaves the project, so refused by that rule before its type is looked at (installProjectLink.test.ts).
  ['a /dev/zero link', (p: string) => fs.symlinkSync('/dev/zero', p), 'is a link to /dev/zero, outside the project'],
] as const) {
  // The bound only turns a regression (a read that blocks on the FIFO) into a failure instead of a hang.
  test(`project settings.json that is ${kind}: install and uninstall refuse in one line, nothing opened`, { timeout: 60_000 }, async (t) => {
    const project = tmpDir(t);
    fs.mkdirSync(path.join(project, '.claude'));
    const file = path.join(project, '.claude', 'settings.json');
    plant(file);
    for (const run of [() => installHook('claude-code', 'project', project, {}, CMD), () => uninstallHook('claude-code', 'project', project, {})]) {
      await assert.rejects(run(), (e: unknown) => e instanceof HookSettingsError && e.message === `${file} ${said}; left unchanged`);
    }
  });
}

test('user settings.json a link to /dev/zero (user scope follows links): refused as a device, never opened', { timeout: 60_000 }, async (t) => {
  const config = tmpDir(t);
  const file = path.join(config, 'settings.json');
  fs.symlinkSync('/dev/zero', file);
  for (const run of [() => installHook('claude-code', 'user', config, { CLAUDE_CONFIG_DIR: config }, CMD), () => uninstallHook('claude-code', 'user', config, { CLAUDE_CONFIG_DIR: config })]) {
    await assert.rejects(run(), (e: unknown) => e instanceof HookSettingsError && e.message === `${file} is a device, not a regular file; left unchanged`);
  }
});
