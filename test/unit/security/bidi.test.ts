// Bidi controls and invisible format characters in transcript text are made visible (U+FFFD) wherever that text
// leaves for a place outside a webview: the Sessions tree's rows and hovers, the quick pick, the status bar, the CLI.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { jsonText, terminalSafe, withoutControls } from '../../../src/core/text/terminal';
import type { SessionUsage } from '../../../src/core/usage/types';
import { sessionPickText } from '../../../src/node/sessions/pickItems';
import { statusOf } from '../../../src/node/sessions/statusModel';
import { buildSessionTree } from '../../../src/node/sessions/treeModel';
import { cliInProcess } from '../../support/cliProcess';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

/** RLO, LRI, PDI, LRM, RLM, ALM, ZWSP, word joiner, BOM and a tag character (invisible ASCII "A"). */
const HIDDEN = ['\u202e', '\u2066', '\u2069', '\u200e', '\u200f', '\u061c', '\u200b', '\u2060', '\ufeff', '\u{e0041}'];
const TITLE = `Fix the ${HIDDEN.join('x')} login \u202eexe.txt bug`;
const hasHidden = (s: string): boolean => HIDDEN.some((c) => s.includes(c));

test('the shared sanitizer: U+FFFD for each, one for one; ZWJ in an emoji stays; JSON escapes them and parses back the same', () => {
  assert.equal(terminalSafe('a\u202eb'), 'a\ufffdb');
  assert.equal(withoutControls('a\n\u2066b'), 'a\ufffdb');
  assert.equal(terminalSafe('👨\u200d👩'), '👨\u200d👩');
  const json = jsonText({ t: TITLE });
  assert.equal(hasHidden(json), false);
  assert.equal((JSON.parse(json) as { t: string }).t, TITLE);
});

function session(): SessionUsage {
  return {
    agent: 'claude-code', file: '/s/a.jsonl', sessionId: 'aaaaaaaa-0000-4000-8000-000000000001', project: '/home/ann/re\u202epo', title: TITLE,
    firstTimestamp: '2026-12-01T09:00:00.000Z', lastTimestamp: '2026-12-01T10:30:00.000Z', models: ['claude-sonnet-4-5'], contextTokens: 160_000,
    compactSoon: true, inputTokens: 10, outputTokens: 20, cacheCreationTokens: 30, cacheReadTokens: 40, cost: 0.5, unknownModels: [],
  };
}

test('a title with bidi controls through the Sessions tree model: row, title, hover, project and quick pick show U+FFFD', () => {
  const tree = buildSessionTree([session()], { threshold: 150_000, homeDir: '/home/ann', now: Date.parse('2026-12-03T12:00:00.000Z') });
  const project = tree.agents[0]!.children[0]!;
  const row = project.children[0]!;
  for (const [what, text] of [['label', row.label], ['title', row.title], ['tooltip', row.tooltip], ['project label', project.label], ['project where', project.where]] as const) {
    assert.equal(hasHidden(text), false, `${what}: ${JSON.stringify(text)}`);
  }
  assert.ok(row.title.includes('\ufffdexe.txt'), row.title);
  assert.ok(row.tooltip.includes('\ufffdexe\\.txt'), row.tooltip);
  const pick = sessionPickText(row);
  assert.equal(hasHidden(pick.label + pick.detail), false);
});

test('the status bar hover', () => {
  const s = statusOf([session()], 150_000);
  assert.ok(s);
  assert.equal(hasHidden(s.text + s.tooltip), false, s.tooltip);
  assert.ok(s.tooltip.includes('\ufffdexe.txt'));
});

test('the CLI: inspect and usage of a session whose first prompt holds them print U+FFFD instead', async (t) => {
  const dir = tmpDir(t);
  const project = path.join(dir, 'p');
  fs.mkdirSync(project);
  let done = false;
  const lines = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').trimEnd().split('\n').map((l) => {
    const o = JSON.parse(l) as { type?: string; message?: { content?: unknown } };
    if (done || o.type !== 'user' || typeof o.message?.content !== 'string') return l;
    done = true;
    o.message.content = TITLE;
    return JSON.stringify(o);
  });
  assert.ok(done);
  const file = path.join(project, path.basename(CLAUDE_SAMPLE));
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const inspect = await cliInProcess({}, 'inspect', file);
  assert.equal(inspect.code, 0, inspect.stderr);
  assert.match(inspect.stdout, /^Context of Fix the /);
  assert.equal(hasHidden(inspect.stdout), false);
  assert.ok(inspect.stdout.includes('\ufffdexe.txt'));
  const usage = await cliInProcess({ HOME: dir, XDG_CACHE_HOME: path.join(dir, 'cache') }, 'usage', project, '--no-cache');
  assert.equal(usage.code, 0, usage.stderr);
  assert.ok(usage.stdout.includes('Fix the '), usage.stdout);
  assert.equal(hasHidden(usage.stdout), false);
  const json = await cliInProcess({ HOME: dir, XDG_CACHE_HOME: path.join(dir, 'cache') }, 'inspect', file, '--json');
  assert.equal(hasHidden(json.stdout), false, 'JSON escapes them');
});
