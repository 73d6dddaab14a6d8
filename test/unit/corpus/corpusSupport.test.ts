// test/support/corpus.ts: the real transcripts come from the repository unless CONTEXT_COMPACTOR_CORPUS names more.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { agentCompactions } from '../../../src/node/eval/segments';
import { corpusFiles, realTranscripts, REPO_CORPUS } from '../../support/corpus';
import { CLAUDE_SAMPLE, FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REPO = path.resolve(__dirname, '..', '..', '..');
const inRepo = (f: string): boolean => !path.relative(REPO, f).startsWith('..') && !path.isAbsolute(path.relative(REPO, f));

/** Runs `fn` with CONTEXT_COMPACTOR_CORPUS set to `value` (or unset), then puts it back. */
function withCorpusEnv<T>(value: string | undefined, fn: () => T): T {
  const before = process.env.CONTEXT_COMPACTOR_CORPUS;
  if (value === undefined) delete process.env.CONTEXT_COMPACTOR_CORPUS; else process.env.CONTEXT_COMPACTOR_CORPUS = value;
  try { return fn(); } finally { if (before === undefined) delete process.env.CONTEXT_COMPACTOR_CORPUS; else process.env.CONTEXT_COMPACTOR_CORPUS = before; }
}

test('without CONTEXT_COMPACTOR_CORPUS every real transcript is a file of the repository, seven files of the development corpus among them', async () => {
  const all = withCorpusEnv(undefined, realTranscripts);
  const outside = all.filter((c) => !inRepo(c.file) || !fs.existsSync(c.file));
  assert.deepEqual(outside, [], 'read from outside the repository (or missing)');
  const corpus = all.filter((c) => c.label.startsWith('corpus/'));
  assert.equal(corpus.length, 7, corpus.map((c) => c.label).join(', '));
  assert.ok(corpus.every((c) => c.file.startsWith(REPO_CORPUS + path.sep)));
  for (const agent of ['claude-code', 'codex'] as const) {
    const files = withCorpusEnv(undefined, () => corpusFiles(agent));
    assert.ok(files.length > 0 && files.every(inRepo), `${agent}: ${files.join(', ')}`);
  }
  // The quality figures need sessions their agent compacted: the repository holds them for both agents.
  for (const agent of ['claude-code', 'codex']) {
    let compacted = 0;
    for (const c of all.filter((x) => x.agent === agent)) if ((await agentCompactions(c.file)).compactions.length > 0) compacted++;
    assert.ok(compacted >= 3, `${agent}: ${compacted} real sessions with an agent compaction`);
  }
  // Every file listed is one SOURCES.tsv accounts for (public sessions with their sources).
  const rows = new Set(fs.readFileSync(path.join(FIXTURES, 'real', 'SOURCES.tsv'), 'utf8').split('\n').slice(1).map((l) => l.split('\t')[0]));
  for (const c of all.filter((x) => x.label.startsWith('corpus/') || (x.label.startsWith('real/') && x.agent !== 'cline'))) {
    assert.ok(rows.has(path.relative(path.join(FIXTURES, 'real'), c.file)), `${c.label} has a SOURCES.tsv row`);
  }
});

test('an extra corpus is read when named, and a file the repository holds (same name or same bytes) only once', (t) => {
  const dir = tmpDir(t);
  fs.mkdirSync(path.join(dir, 'claude-code'));
  const ours = corpusFiles('claude-code')[0]!;
  fs.copyFileSync(ours, path.join(dir, 'claude-code', path.basename(ours)));
  fs.copyFileSync(path.join(FIXTURES, 'real', 'claude-code', 'jtowe-1.0.59-windows.jsonl'), path.join(dir, 'claude-code', 'renamed.jsonl'));
  fs.copyFileSync(CLAUDE_SAMPLE, path.join(dir, 'claude-code', 'new.jsonl'));
  const extra = withCorpusEnv(dir, realTranscripts).filter((c) => !inRepo(c.file));
  assert.deepEqual(extra.map((c) => c.label), ['extra/claude-code/new.jsonl']);
  const files = withCorpusEnv(dir, () => corpusFiles('claude-code'));
  assert.deepEqual(files.filter((f) => !inRepo(f)), [path.join(dir, 'claude-code', 'new.jsonl')]);
  assert.equal(files.length, withCorpusEnv(undefined, () => corpusFiles('claude-code')).length + 1);
  assert.throws(() => withCorpusEnv(path.join(dir, 'missing'), realTranscripts), /^Error: CONTEXT_COMPACTOR_CORPUS=.*missing is not a folder$/);
});

test('no test, bench or script looks for a corpus beside the clone or at a path of this machine', () => {
  const hits: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) { if (e.name !== 'fixtures' && e.name !== 'node_modules') walk(p); continue; }
      if (!/\.(?:[cm]?[jt]s|sh)$/.test(e.name) || p === __filename) continue;
      // A path in a string: '../shared/…', '/work/shared/…' or the old corpus folder by any route.
      for (const [i, line] of fs.readFileSync(p, 'utf8').split('\n').entries()) if (/['"`][^'"`\n]*(?:\.\.\/shared\b|\/work\/shared\b|shared['"`], ['"`]corpus)/.test(line)) hits.push(`${path.relative(REPO, p)}:${i + 1}`);
    }
  };
  for (const d of ['test', 'bench', 'scripts']) walk(path.join(REPO, d));
  assert.deepEqual(hits, []);
});
