// A field no reader uses (Claude Code's toolUseResult) is left out of the text parsed, and of nothing else: the
// record parses as it was without the field, a field anywhere but the top level stays, and the read is the same.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { fieldKey, unreadRange } from '../../../src/node/unreadField';
import { forEachLine, KeptLines } from '../../../src/node/jsonlLines';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FORMAT_READERS } from '../../../src/core/formats/registry';
import { createTranscriptReader } from '../../../src/core/read/transcriptReader';
import { tmpDir } from '../../support/tmp';

const KEY = fieldKey({ name: 'toolUseResult' });
const CODEX_KEY = fieldKey({ name: 'item', parent: 'payload', parentOf: 'event_msg' });
const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');
const REAL_CLAUDE = [
  ...fs.readdirSync(path.join(FIXTURES, 'real', 'claude-code')).map((f) => path.join(FIXTURES, 'real', 'claude-code', f)),
  path.join(FIXTURES, 'claude-code', 'sample.jsonl'),
].filter((f) => f.endsWith('.jsonl'));

/** The line's text without the range unreadRange gives, or undefined when it keeps the line whole. */
function without(line: string, key = KEY): string | undefined {
  const b = Buffer.from(line, 'utf8');
  const r = unreadRange(b, 0, b.length, key);
  return r ? Buffer.concat([b.subarray(0, r.start), b.subarray(r.end)]).toString('utf8') : undefined;
}

test('every real Claude Code line with a toolUseResult parses as the same record without it', () => {
  let cut = 0;
  for (const file of REAL_CLAUDE) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const value = JSON.parse(line) as Record<string, unknown>;
      const rest = without(line);
      if (!('toolUseResult' in value)) { assert.equal(rest, undefined, `${path.basename(file)}: cut a line without the field`); continue; }
      // Claude Code writes compact JSON with the field on the top level: every such line is cut.
      assert.notEqual(rest, undefined, `${path.basename(file)}: a toolUseResult line kept whole`);
      const { toolUseResult: _gone, ...expected } = value;
      assert.deepEqual(JSON.parse(rest!), expected);
      assert.deepEqual(Object.keys(JSON.parse(rest!) as object), Object.keys(expected), 'key order kept');
      cut++;
    }
  }
  assert.ok(cut > 500, `only ${cut} lines cut`);
});

test('the field is cut only from the top level of one compact JSON object', () => {
  const cases: [string, string | undefined][] = [
    ['{"a":1,"toolUseResult":{"s":"}]\\"{[","t":[1,{"u":"]"}]},"z":"}"}', '{"a":1,"z":"}"}'],
    ['{"toolUseResult":[1,2],"b":1}', '{"b":1}'],
    ['{"toolUseResult":"x"}', '{}'],
    ['{"a":1,"toolUseResult":null}', '{"a":1}'],
    ['{"a":1,"toolUseResult":"tail\\\\"}', '{"a":1}'],
    // Nested, in an array, inside a string, a key that ends with the name: left as it is.
    ['{"a":{"toolUseResult":1}}', undefined],
    ['{"a":{"toolUseResult":1,"b":2},"c":3}', undefined],
    ['{"a":[{"toolUseResult":1}]}', undefined],
    ['[{"toolUseResult":1}]', undefined],
    ['{"a":"\\"toolUseResult\\":1"}', undefined],
    ['{"x\\"toolUseResult":1}', undefined],
    // Not one whole compact object: truncated, a CR, white space, an empty value.
    ['{"a":1,"toolUseResult":{"b":"x', undefined],
    ['{"a":1,"toolUseResult":{"b":"x"}}\r', undefined],
    ['{"a":1, "toolUseResult":{"b":"x"}}', undefined],
    ['{"a":1,"toolUseResult":}', undefined],
    ['{"a":1,"toolUseResult":{"b":1}}}', undefined],
  ];
  for (const [line, expected] of cases) assert.equal(without(line), expected, line);
});

const REAL_CODEX = [path.join(FIXTURES, 'codex'), path.join(FIXTURES, 'real', 'codex')]
  .flatMap((dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f)));

test('every real Codex item_completed event parses as the same record without its item; other records stay whole', () => {
  let cut = 0;
  for (const file of REAL_CODEX) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const value = JSON.parse(line) as { type?: string; payload?: Record<string, unknown> };
      const rest = without(line, CODEX_KEY);
      if (!(value.type === 'event_msg' && value.payload && 'item' in value.payload)) { assert.equal(rest, undefined, `${path.basename(file)}: cut a line without the field`); continue; }
      assert.notEqual(rest, undefined, `${path.basename(file)}: an item_completed line kept whole`);
      const { item: _gone, ...payload } = value.payload;
      assert.deepEqual(JSON.parse(rest!), { ...value, payload });
      cut++;
    }
  }
  assert.ok(cut > 10, `only ${cut} lines cut`);
  // In any other record, or any other top-level object, `item` stays.
  for (const line of ['{"type":"response_item","payload":{"type":"x","item":1}}', '{"type":"event_msg","other":{"item":1},"payload":{"type":"x"}}', '{"type":"event_msg","payload":{"type":"x","inner":{"item":1}}}', '{"a":{"type":"event_msg","payload":{"item":1}}}']) {
    assert.equal(without(line, CODEX_KEY), undefined, line);
  }
  assert.equal(without('{"t":1,"type":"event_msg","payload":{"type":"item_completed","item":{"a":"}"},"at":2},"z":3}', CODEX_KEY), '{"t":1,"type":"event_msg","payload":{"type":"item_completed","at":2},"z":3}');
  assert.equal(without('{"type":"event_msg","payload":{"item":[1],"type":"x"}}', CODEX_KEY), '{"type":"event_msg","payload":{"type":"x"}}');
});

test('forEachLine decodes a line without the field; its bytes, and KeptLines\' text, stay whole', async (t) => {
  const file = path.join(tmpDir(t), 's.jsonl');
  const lines = ['{"type":"user","toolUseResult":{"stdout":"é ✓ 😀"},"uuid":"u1"}', '{"type":"assistant","uuid":"u2"}'];
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const texts: string[] = [], bytes: string[] = [];
  await forEachLine(file, (l, b, s, e) => { texts.push(l); bytes.push(b.toString('utf8', s, e)); }, { unread: () => KEY });
  assert.deepEqual(texts, ['{"type":"user","uuid":"u1"}', lines[1]]);
  assert.deepEqual(bytes, lines);
  const kept = await KeptLines.read(file, () => undefined, { unread: () => KEY });
  assert.equal(kept.lines.text(0), lines[0]);
  // A line over the 1 MB read chunks (joined before it is decoded), the field cut from it too.
  const big = `{"type":"user","message":{"content":"${'é✓'.repeat(300_000)}"},"toolUseResult":{"stdout":"${'😀x'.repeat(300_000)}"},"uuid":"u3"}`;
  fs.writeFileSync(file, `${lines[1]}\n${big}\n`);
  const seen: string[] = [];
  await forEachLine(file, (l) => seen.push(l), { unread: () => KEY });
  assert.deepEqual(seen, [lines[1], `{"type":"user","message":{"content":"${'é✓'.repeat(300_000)}"},"uuid":"u3"}`]);
  assert.equal((await KeptLines.read(file, () => undefined, { unread: () => KEY })).lines.text(1), big);
});

test('a real Claude Code or Codex session reads the same with the field left out as from whole lines', async () => {
  for (const file of [...REAL_CLAUDE, ...REAL_CODEX]) {
    const cut = (await readTranscriptFile(file, { keepRaw: true })).session;
    const whole = (await readTranscriptFile(file, { keepRaw: true, lineStore: 'strings' })).session;
    assert.deepEqual(cut.messages, whole.messages, path.basename(file));
    assert.deepEqual(cut.records.map((r) => [r.kind, r.id, r.inContext, r.envelope]), whole.records.map((r) => [r.kind, r.id, r.inContext, r.envelope]));
    assert.deepEqual(cut.warnings, whole.warnings);
    for (let i = 0; i < whole.records.length; i++) assert.equal(cut.rawLines!.text(i), whole.records[i]!.raw, 'written back byte for byte');
  }
});

test('the reader names the field once the format is known, and not when its parser keeps whole line texts', () => {
  const lines = fs.readFileSync(REAL_CLAUDE[0]!, 'utf8').split('\n').filter(Boolean);
  for (const [options, expected] of [
    [{ keepRaw: false }, { name: 'toolUseResult' }],
    [{ keepRaw: true, linesKeptOutside: true }, { name: 'toolUseResult' }],
    [{ keepRaw: true }, undefined],
  ] as const) {
    const reader = createTranscriptReader(FORMAT_READERS, options);
    assert.equal(reader.unreadField(), undefined, 'before the format is known');
    for (const l of lines) reader.push(l);
    assert.deepEqual(reader.unreadField(), expected);
  }
  const codex = createTranscriptReader(FORMAT_READERS, { keepRaw: false });
  for (const l of fs.readFileSync(REAL_CODEX[0]!, 'utf8').split('\n').filter(Boolean)) codex.push(l);
  assert.deepEqual(codex.unreadField(), { name: 'item', parent: 'payload', parentOf: 'event_msg' });
});
