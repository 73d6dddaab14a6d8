// A Claude Code line's toolUseResult (a second copy of the tool output the parser never reads) is neither decoded nor
// parsed, and the session read is the one the whole lines give: on real files and on the lines that could fool the cut.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { tmpDir } from '../../support/tmp';
import { compacted, seen, wholeLines } from '../../support/wholeLines';

const REAL = 'test/fixtures/real/corpus/claude-code';
/** Long enough to matter; any length is cut (node/unreadField.ts). */
const UNREAD_MIN_LINE = 2048;
const realFiles = fs.readdirSync(REAL).filter((f) => f.endsWith('.jsonl')).map((f) => `${REAL}/${f}`);

/** Every string JSON.parse is given while `fn` runs. */
async function parsedTexts<T>(fn: () => Promise<T>): Promise<{ result: T; texts: string[] }> {
  const texts: string[] = [];
  const parse = JSON.parse;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => { texts.push(text); return parse(text, reviver); }) as typeof JSON.parse;
  try {
    return { result: await fn(), texts };
  } finally {
    JSON.parse = parse;
  }
}

for (const file of realFiles) {
  test(`real Claude Code file reads as its whole lines do: ${file.split('/').pop()}`, async () => {
    const { result, texts } = await parsedTexts(() => readTranscriptFile(file));
    assert.deepEqual(seen(result.session), seen(wholeLines(file)));
    // Each long line that holds a toolUseResult object, once the format is known (at the latest after the 64 lines the
    // reader looks at to tell it), was parsed without it: none of its text was parsed.
    const long = fs.readFileSync(file, 'utf8').split('\n').filter((l, i) => i >= 64 && Buffer.byteLength(l) >= UNREAD_MIN_LINE && l.includes('"toolUseResult":{'));
    if (long.length === 0) return;
    const parsedLong = texts.filter((t) => t.length >= 1000);
    for (const line of long) {
      const value = JSON.stringify((JSON.parse(line) as { toolUseResult: unknown }).toolUseResult);
      assert.ok(!parsedLong.some((t) => t.includes(value)), `a toolUseResult was parsed: ${value.slice(0, 80)}`);
    }
    assert.ok(texts.some((t) => t.length >= 1000 && t.startsWith('{"parentUuid"') && !t.includes('"toolUseResult":')), 'no line was read without its toolUseResult');
  });
}

// A real tool-result record (odoo-addons, Claude Code 2.1.128) to build the traps from.
const realLine = fs.readFileSync(`${REAL}/odoo-addons-2.1.128-2compactions.jsonl`, 'utf8').split('\n')
  .find((l) => Buffer.byteLength(l) >= UNREAD_MIN_LINE && l.includes('"toolUseResult":{'))!;
const record = JSON.parse(realLine) as Record<string, unknown>;
const pad = 'x'.repeat(UNREAD_MIN_LINE);
// The traps come after the lines the reader looks at to tell the format (64): only then are lines cut. They continue
// the real session's chain, so their messages are in the session compared.
const prefix = fs.readFileSync(`${REAL}/odoo-addons-2.1.128-2compactions.jsonl`, 'utf8').split('\n').slice(0, 80);
const lastUuid = [...prefix].reverse().map((l) => (JSON.parse(l) as { uuid?: string }).uuid).find((u) => u !== undefined)!;
// Later than every record of the prefix: the live branch is walked from the newest record (claude-code/chain.ts).
const later = '2030-01-01T00:00:00.000Z';
const first = { type: 'user', uuid: 'u0', parentUuid: lastUuid, sessionId: record.sessionId, cwd: record.cwd, timestamp: later, message: { role: 'user', content: 'start' } };
// Its own message: the real one answers a tool call the prefix already saw answered, and a repeated answer is dropped.
const chained = (o: Record<string, unknown>): Record<string, unknown> => ({ ...o, uuid: 't1', parentUuid: 'u0', timestamp: later, message: { role: 'user', content: [{ type: 'text', text: 'the tool ran' }] } });

/** An assistant message whose tool call has an argument named toolUseResult. */
const nestedKey = { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'Write', input: { toolUseResult: { keep: pad } } }] };

const traps: Record<string, string> = {
  // The first "toolUseResult": is a tool call's argument, nested in the message: it must stay as written.
  'the key nested in a tool call': JSON.stringify({ ...first, type: 'assistant', uuid: 't1', parentUuid: 'u0', timestamp: later, message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { toolUseResult: { keep: pad }, note: 'in the input' } }] } }),
  // Escaped quotes after runs of backslashes, a quote at the very end of a string, non-ASCII text.
  'quotes behind backslashes': JSON.stringify({ ...chained(record), toolUseResult: { stdout: `a\\"b\\\\"c\\\\\\"${pad}é✓😀"`, stderr: '\\', list: [['"'], { '}': ']' }] } }),
  'a string value': JSON.stringify({ ...chained(record), toolUseResult: `Error: "quoted" \\ ${pad}` }),
  'a number value': JSON.stringify({ ...chained(record), toolUseResult: 12.5e3, note: pad }),
  // Not JSON: a line cut short is invalid as before, with the same warning. (Decided: a value malformed inside but
  // whole — brackets balanced, quotes closed — is left unparsed like any other, so that record now reads; agents write
  // their lines with JSON.stringify, and what real files hold is lines cut short.)
  'an unterminated value': `${JSON.stringify({ ...chained(record), toolUseResult: 0 }).replace('"toolUseResult":0', `"toolUseResult":{"stdout":"${pad}`)}`,
  // The same key nested in the message before the record's own, which is null (or spelt with a space or an escape):
  // the nested one must stay as written.
  'the nested key before a null one': JSON.stringify({ ...chained(record), type: 'assistant', message: nestedKey, toolUseResult: null }),
  'the nested key before a spaced null one': `${JSON.stringify({ ...chained(record), type: 'assistant', message: nestedKey }).slice(0, -1)},"toolUseResult" : null}`,
  'the nested key before an escaped null one': `${JSON.stringify({ ...chained(record), type: 'assistant', message: nestedKey }).slice(0, -1)},"toolUse\\u0052esult":null}`,
  // `"toolUseResult":` inside a key's text (`"a\"toolUseResult":`) is not that key.
  'the key inside a key': JSON.stringify({ ...chained(record), type: 'assistant', message: { ...nestedKey, content: [{ type: 'tool_use', id: 'c1', name: 'Write', input: { 'a"toolUseResult': { keep: pad } } }] }, toolUseResult: null }),
  // The key twice at the top level: JSON.parse keeps the last.
  'the key twice, the last null': `${JSON.stringify({ ...chained(record), toolUseResult: { stdout: pad } }).slice(0, -1)},"toolUseResult":null}`,
  'the key twice, the first null': `${JSON.stringify({ ...chained(record), toolUseResult: null }).slice(0, -1)},"toolUseResult":{"stdout":"${pad}"}}`,
  // A line long enough to be checked for nesting deeper than 1000 levels: same record, same warning.
  'a deep message on a 4 MB line': JSON.stringify({ ...chained(record), type: 'assistant', message: { ...nestedKey, content: [{ type: 'tool_use', id: 'c1', name: 'Write', input: { deep: JSON.parse(`${'['.repeat(1100)}1${']'.repeat(1100)}`) as unknown } }] }, toolUseResult: { stdout: 'y'.repeat(4 << 20) } }),
  'a CRLF line end': `${JSON.stringify({ ...chained(record), toolUseResult: { stdout: pad } })}\r`,
};

for (const [name, trap] of Object.entries(traps)) {
  test(`a line that could fool the cut reads as its whole line does: ${name}`, async (t) => {
    const file = `${tmpDir(t)}/s.jsonl`;
    fs.writeFileSync(file, `${prefix.join('\n')}\n${JSON.stringify(first)}\n${trap}\n`);
    const session = (await readTranscriptFile(file)).session;
    // The trap's record is read (or named invalid) as the last thing in the session.
    assert.ok(session.messages.length > 0);
    const trapRecord = session.messages.flatMap((m) => m.records ?? []).includes(81);
    assert.equal(trapRecord, session.warnings.every((w) => !/not valid JSON|incomplete/.test(w)), `the trap's record ${trapRecord ? 'is' : 'is not'} in the session: ${session.warnings.join('; ')}`);
    assert.deepEqual(seen(session), seen(wholeLines(file)));
    // A nested key is read as written (the trap's tool call is in the session compared).
    if (trap.includes('"keep"')) assert.ok(JSON.stringify(session.messages).includes(`{"keep":"${pad}"}`));
    // What a compaction writes: from the kept bytes (field left out) as from the kept strings (lines whole).
    assert.equal(compacted((await readTranscriptFile(file, { keepRaw: true })).session), compacted((await readTranscriptFile(file, { keepRaw: true, lineStore: 'strings' })).session));
  });
}
