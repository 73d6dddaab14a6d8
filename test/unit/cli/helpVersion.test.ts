// `--help`, `-h` and `--version` on every command (issue #25: `compact --help` was "unknown option", no --version).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cliArgv, cliInProcess, REPO, runSync } from '../../support/cliProcess';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const COMMANDS = ['inspect', 'compact', 'simulate', 'usage', 'eval', 'export', 'hook'];

test('every command answers --help and -h on stdout with its own usage and the exit codes, exit 0', async () => {
  for (const cmd of COMMANDS) {
    for (const flag of ['--help', '-h']) {
      // Also after other arguments: `compact FILE --help` is a request for help, not a compaction.
      for (const args of [[cmd, flag], [cmd, 'some-file.jsonl', flag]]) {
        const r = await cliInProcess({}, ...args);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stderr, '', args.join(' '));
        assert.match(r.stdout, new RegExp(`^usage: context-compactor ${cmd}\\b`), args.join(' '));
        assert.match(r.stdout, /exit codes: 0 done/, args.join(' '));
      }
    }
  }
});

test('--version at the top and on every command prints the package version, exit 0', async () => {
  for (const args of [['--version'], ['-V'], ...COMMANDS.map((c) => [c, '--version'])]) {
    const r = await cliInProcess({}, ...args);
    assert.equal(r.code, 0, args.join(' '));
    assert.equal(r.stdout, `context-compactor ${VERSION}\n`, args.join(' '));
  }
});

test('after `--`, -h is a file name, not a request for help', async () => {
  const r = await cliInProcess({}, 'inspect', '--', '-h');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no such file: -h/);
});

test('a child process: `compact --help` exits 0 (was "unknown option --help", exit 2) and `--version` prints the version', () => {
  const help = runSync(cliArgv(['compact', '--help']));
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage: context-compactor compact FILE/);
  const version = runSync(cliArgv(['--version']));
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout, `context-compactor ${VERSION}\n`);
});
