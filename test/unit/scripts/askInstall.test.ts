// scripts/lib/ask-install.sh, as test-prereqs.sh runs it: a person at a terminal is asked (y/N) before apt-get; CI and
// runs without a terminal go ahead. The terminal is a real pseudo-terminal (util-linux `script`), the answer typed into it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';

const LIB = path.resolve(__dirname, '..', '..', '..', 'scripts', 'lib', 'ask-install.sh');
const WHAT = 'Debian packages chromium ripgrep (about 120 MB to download)';
/** Sources the library and prints ask_install's answer as `rc=N`. */
const RUN = `source '${LIB}'; ask_install '${WHAT}'; echo rc=$?`;

/** The environment without CI, plus `extra`. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { CI: _ci, ...rest } = process.env;
  return { ...rest, ...extra };
}

/** Runs RUN with stdin and stderr on a pseudo-terminal, typing `typed`; the terminal's text and the answer. */
function atTerminal(typed: string, extra: Record<string, string> = {}): { text: string; rc: number } {
  // The script runs from a variable: quoted into script's own shell command line, its `$?` would be expanded there.
  const r = spawnSync('script', ['-qec', 'bash -c "$ASK_RUN"', '/dev/null'], { input: typed, env: env({ ...extra, ASK_RUN: RUN }), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const rc = /rc=(\d)/.exec(r.stdout);
  assert.ok(rc, r.stdout);
  return { text: r.stdout, rc: Number(rc[1]) };
}

test('at a terminal, outside CI: the packages and size are named, and only a yes installs', () => {
  for (const yes of ['y\n', 'Y\n', 'yes\n']) {
    const r = atTerminal(yes);
    assert.equal(r.rc, 0, `${JSON.stringify(yes)}: ${r.text}`);
    assert.ok(r.text.includes(`npm test needs ${WHAT}.`), r.text);
    assert.match(r.text, /Install them now with apt-get, as root\? \[y\/N\]/);
  }
  for (const no of ['\n', 'n\n', 'no\n', 'whatever\n', '']) assert.equal(atTerminal(no).rc, 1, JSON.stringify(no));
  // CI set to a false value is not CI.
  assert.equal(atTerminal('\n', { CI: 'false' }).rc, 1);
  assert.equal(atTerminal('\n', { CI: '0' }).rc, 1);
});

test('in CI, or with no terminal, it goes ahead without a question (the CI script and pipes run unattended)', () => {
  for (const ci of ['true', '1', 'yes']) {
    const r = atTerminal('n\n', { CI: ci });
    assert.equal(r.rc, 0, r.text);
    assert.ok(!r.text.includes('[y/N]'), r.text);
  }
  const piped = spawnSync('bash', ['-c', RUN], { input: 'n\n', env: env(), encoding: 'utf8' });
  assert.equal(piped.stdout.trim(), 'rc=0');
  assert.equal(piped.stderr, '', 'no question asked');
});
