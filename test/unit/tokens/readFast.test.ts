// The read path's faster forms must give what the plain ones gave: class counts by table, previews for the top only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentBlocks } from '../../../src/core/formats/claude-code/blocks';
import { compose, compositionItems, preview, textForPreview } from '../../../src/core/tokens/composition';
import { classify } from '../../../src/core/tokens/estimate';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';

/** The comparison chain classify used before its lookup table. */
function reference(text: string): string {
  const n = Math.min(text.length, 600);
  if (n === 0) return 'prose';
  let spaces = 0, punct = 0, nonAscii = 0, newlines = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) spaces++;
    else if (c === 10) newlines++;
    else if (c === 123 || c === 125 || c === 34 || c === 58 || c === 59 || c === 40 || c === 41 || c === 91 || c === 93 || c === 61) punct++;
    else if (c > 127) nonAscii++;
  }
  if (nonAscii > n * 0.3) return 'cjk';
  if (n >= 200 && spaces + newlines < n * 0.01) return 'opaque';
  if (punct > n * 0.08) return text.charCodeAt(0) === 123 || text.charCodeAt(0) === 91 ? 'json' : 'code';
  if (newlines > n * 0.02 && punct > n * 0.03) return 'code';
  return 'prose';
}

test('classify by table equals the comparison chain on random texts and on every real block', async () => {
  const pieces = ['a', ' ', '\n', '{', '}', '"', ':', ';', '(', ')', '[', ']', '=', 'é', '中文', '😀', '\u007f', '\u0080', 'x'.repeat(40), ' '.repeat(30)];
  let seed = 11;
  const rand = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let i = 0; i < 3000; i++) {
    let s = '';
    for (let j = rand(120); j > 0; j--) s += pieces[rand(pieces.length)];
    assert.equal(classify(s), reference(s), JSON.stringify(s));
  }
  const kinds = new Set<string>();
  for (const file of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
    const { session } = await readTranscriptFile(file);
    for (const b of session.messages.flatMap((m) => m.blocks)) {
      const text = 'inputText' in b ? b.inputText : 'text' in b ? b.text : '';
      kinds.add(reference(text));
      assert.equal(classify(text), reference(text));
    }
  }
  assert.ok(kinds.size >= 3, `several classes met: ${[...kinds].join(', ')}`);
});

test('the report\'s top items are the largest items with their previews, as when every item had one', async () => {
  for (const file of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
    const { session } = await readTranscriptFile(file);
    const c = compose(session, 20);
    const all = compositionItems(session, c.calibration.scale).sort((a, b) => b.tokens - a.tokens).slice(0, 20).map((i) => ({ ...i, tokens: Math.round(i.tokens) }));
    assert.equal(c.top.length, 20);
    assert.deepEqual(c.top, all);
    assert.deepEqual(c.top.map((i) => Object.keys(i)), all.map((i) => Object.keys(i)), 'same key order in the JSON report');
  }
});

test('a result is persisted when it opens with the tag, not when its output quotes it', () => {
  const ref = { record: 0 };
  const [saved, quoted, parts] = contentBlocks([
    { type: 'tool_result', tool_use_id: 'a', content: '<persisted-output>\nOutput too large (52KB). Full output saved to: /tmp/x.txt\n</persisted-output>' },
    { type: 'tool_result', tool_use_id: 'b', content: 'src/blocks.ts:12: export const PERSISTED_OUTPUT = \'<persisted-output>\';' },
    { type: 'tool_result', tool_use_id: 'c', content: [{ type: 'text', text: '<persisted-output>\npreview' }] },
  ], ref, 'user');
  assert.deepEqual([saved, quoted, parts].map((b) => b!.type === 'tool_result' && b!.persisted), [true, false, true]);
  assert.equal(parts!.type === 'tool_result' && parts!.text, '<persisted-output>\npreview');
});

test('a tool output kept for a preview (inspect\'s lean read) previews as the whole output does', async () => {
  // Whitespace runs of every kind (preview collapses /\s+/), few visible characters, non-ASCII, and long texts.
  const pieces = ['a', 'bc', ' ', '   ', '\n', '\t', '\u00a0', '\u2028', '\u3000', '\ufeff', 'é', '中文', '😀', '{', '"', 'x'.repeat(50), ' '.repeat(120), '\n'.repeat(300)];
  let seed = 7;
  // mulberry32: 32-bit integer steps, so the sequence is the same on every machine.
  const rand = (n: number): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  let cut = 0;
  for (let i = 0; i < 4000; i++) {
    let s = '';
    for (let j = rand(i % 2 ? 60 : 400); j > 0; j--) s += pieces[rand(pieces.length)];
    const kept = textForPreview(s);
    assert.equal(preview(kept), preview(s), JSON.stringify(s.slice(0, 200)));
    assert.ok(s.startsWith(kept));
    if (kept.length < s.length) { cut++; assert.equal(kept.length, 400, 'a cut keeps the window preview reads first'); }
  }
  assert.ok(cut > 100, `many texts were cut (${cut})`);
  // Every tool result of the real sessions, and the lean read's blocks beside the full read's.
  for (const file of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
    const full = (await readTranscriptFile(file)).session.messages.flatMap((m) => m.blocks);
    const lean = (await readTranscriptFile(file, { previewTexts: true })).session.messages.flatMap((m) => m.blocks);
    assert.equal(lean.length, full.length);
    let shorter = 0;
    full.forEach((b, k) => {
      const l = lean[k]!;
      assert.equal(l.tokens, b.tokens, 'tokens counted from the whole text');
      if (b.type !== 'tool_result' || l.type !== 'tool_result') return assert.deepEqual(l, b, 'only tool results are cut');
      assert.equal(preview(l.text), preview(b.text));
      if (l.text.length < b.text.length) shorter++;
    });
    assert.ok(shorter > 0, `${file}: some results were kept short`);
  }
});
