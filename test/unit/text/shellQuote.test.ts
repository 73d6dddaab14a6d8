// Quoting per shell (core/text/shellQuote): hostile folder names stay one word in sh (run for real here), fish,
// PowerShell and cmd, or no quote is offered.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { andThen, quoteArg, shellOf, type Shell } from '../../../src/core/text/shellQuote';

const HOSTILE = [';calc;', '$(touch x)', '`touch x`', "it's", 'say "hi"', '%PATH%', 'wow!', 'a\nb', 'R&D|x<y>z^', '-rf', "’;calc;‘", '${HOME}', 'back\\slash\'', ' lead space'];

test('sh: every hostile name but one with a line break comes back from a real sh as itself, one word', () => {
  for (const name of HOSTILE) {
    const q = quoteArg(`/w/${name}/s.json`, 'sh');
    if (name.includes('\n')) { assert.equal(q, undefined); continue; }
    assert.ok(q !== undefined, name);
    for (const sh of ['/bin/sh', '/bin/bash']) {
      const r: { stdout: string } = spawnSync(sh, ['-c', `printf '%s|' ${q}`], { encoding: 'utf8', cwd: '/tmp' });
      assert.equal(r.stdout, `/w/${name}/s.json|`, `${sh}: ${name}`);
    }
  }
});

test('PowerShell: single quotes with every kind of single quote doubled, nothing else special inside; && is not used', () => {
  assert.equal(quoteArg('C:\\w\\;calc;\\s.json', 'powershell'), "'C:\\w\\;calc;\\s.json'");
  assert.equal(quoteArg("C:\\it's\\s.json", 'powershell'), "'C:\\it''s\\s.json'");
  // PowerShell ends a '…' string at ’ ‘ ‚ ‛ too: each doubled, so `’;calc;‘` stays inside.
  assert.equal(quoteArg('C:\\a’;calc;‘b', 'powershell'), "'C:\\a’’;calc;‘‘b'");
  for (const name of ['$(calc)', '`calc`', '%PATH%', 'a"b', 'wow!', '${env:HOME}']) {
    const q = quoteArg(`C:\\w\\${name}`, 'powershell')!;
    assert.ok(q.startsWith("'") && q.endsWith("'") && q.slice(1, -1) === `C:\\w\\${name}`, name);
  }
  assert.equal(quoteArg('-rf', 'powershell'), "'-rf'", 'never read as an option');
  assert.equal(quoteArg('a\nb', 'powershell'), undefined);
  assert.equal(andThen('a', 'b', 'powershell'), 'a; if ($?) { b }');
});

test('cmd: double quotes where they protect (& | < > ^ ;), none offered for % ! " or a line break', () => {
  assert.equal(quoteArg('C:\\R&D;calc;|x', 'cmd'), '"C:\\R&D;calc;|x"');
  for (const name of ['%PATH%', 'wow!', 'a"&calc&"b', 'a\nb', 'a\rb']) assert.equal(quoteArg(`C:\\w\\${name}`, 'cmd'), undefined, name);
  assert.equal(andThen('a', 'b', 'cmd'), 'a && b');
});

test('fish: backslash and quote escaped inside single quotes (fish reads \\\' there, sh does not)', () => {
  assert.equal(quoteArg("/w/x\\'; calc; echo \\", 'fish'), "'/w/x\\\\\\'; calc; echo \\\\'");
});

test('an unknown shell gets only words that need no quote', () => {
  assert.equal(quoteArg('/w/plain/s.json', 'other'), '/w/plain/s.json');
  for (const name of HOSTILE.filter((n) => n !== '-rf')) assert.equal(quoteArg(`/w/${name}`, 'other'), undefined, name);
  assert.equal(quoteArg('-rf', 'other'), undefined, 'never read as an option');
});

test('shellOf: the terminal executable, else the platform default', () => {
  const cases: [string | undefined, string, Shell][] = [
    ['C:\\Program Files\\PowerShell\\7\\pwsh.exe', 'win32', 'powershell'], ['C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'win32', 'powershell'],
    ['C:\\WINDOWS\\System32\\cmd.exe', 'win32', 'cmd'], ['C:\\Program Files\\Git\\bin\\bash.exe', 'win32', 'sh'], ['/bin/zsh', 'darwin', 'sh'],
    ['/usr/bin/fish', 'linux', 'fish'], ['/usr/bin/nu', 'linux', 'other'], ['/bin/tcsh', 'linux', 'other'], [undefined, 'win32', 'powershell'], ['', 'linux', 'sh'],
  ];
  for (const [exe, platform, want] of cases) assert.equal(shellOf(exe, platform), want, `${exe} on ${platform}`);
});
