// Seeded fuzz over every reader and compact: real transcripts (fixtures + the development corpus) mutated byte- and line-wise.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { test } from 'node:test';
import { corpusFiles } from '../../support/corpus';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';
import { duplicateIds, MUTATORS, prng, runCore, usageOf } from '../../support/fuzz';

const SEED = 0x5eed2026;
/** Mutants per seed file and mutator: 2 fixtures + ≤ 13 corpus files, 9 mutators → ≤ 270 runs. */
const PER_MUTATOR = 2;
/** Corpus files are cut to their first lines so the suite stays well under a minute; fixtures are whole. */
const CORPUS_LINES = 150;

function seeds(): { name: string; bytes: Buffer }[] {
  const cut = (f: string): Buffer => Buffer.from(readFileSync(f, 'utf8').split('\n').slice(0, CORPUS_LINES).join('\n') + '\n');
  return [
    { name: basename(CLAUDE_SAMPLE), bytes: readFileSync(CLAUDE_SAMPLE) },
    { name: basename(CODEX_SAMPLE), bytes: readFileSync(CODEX_SAMPLE) },
    ...[...corpusFiles('claude-code'), ...corpusFiles('codex')].map((f) => ({ name: basename(f), bytes: cut(f) })),
  ];
}

test('every mutant reads, compacts and re-reads without an exception; outputs keep tool ids unique and pairs whole', () => {
  const rnd = prng(SEED);
  let runs = 0, readable = 0;
  const errors = new Set<string>();
  assert.ok(seeds().length > 2, 'the development corpus seeds the fuzz too');
  for (const seed of seeds()) {
    for (const [name, mutate] of Object.entries(MUTATORS)) {
      for (let k = 0; k < PER_MUTATOR; k++) {
        const input = mutate(seed.bytes, rnd);
        const where = `${seed.name} / ${name} #${k}`;
        let r;
        try {
          r = runCore(input);
        } catch (e) {
          assert.fail(`${where}: ${e instanceof Error ? e.stack : String(e)}`);
        }
        runs++;
        if (!r.ok) {
          assert.ok(r.error && !r.error.includes('\n') && r.error.length < 300, `${where}: one-line error, got ${r.error}`);
          errors.add(r.error.replace(/\(.*\)/, ''));
          continue;
        }
        readable++;
        assert.ok(r.outputSession, `${where}: the compacted output reads back`);
        for (const kind of ['tool_call', 'tool_result'] as const) {
          assert.deepEqual(duplicateIds(r.session!.messages, kind), [], `${where}: ${kind} ids unique in the session read`);
          assert.deepEqual(duplicateIds(r.outputSession.messages, kind), [], `${where}: ${kind} ids unique in the output`);
        }
        for (const w of r.session!.warnings) assert.ok(!w.includes('\n') && !/at \w+ \(/.test(w), `${where}: warning is one line: ${w}`);
        const usage = usageOf(seed.name, input);
        for (const s of usage.sessions) {
          for (const v of [s.inputTokens, s.outputTokens, s.cacheCreationTokens, s.cacheReadTokens]) assert.ok(Number.isSafeInteger(v) && v >= 0, `${where}: usage ${v}`);
          assert.ok(s.cost === undefined || (Number.isFinite(s.cost) && s.cost >= 0), `${where}: cost ${s.cost}`);
        }
      }
    }
  }
  assert.ok(runs >= 2 * Object.keys(MUTATORS).length * PER_MUTATOR);
  // Most mutants still hold a transcript: the readers repair and warn rather than give up.
  assert.ok(readable > runs * 0.6, `${readable} of ${runs} mutants readable; errors: ${[...errors].join(' | ')}`);
});
