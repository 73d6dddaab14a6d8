// A Codex event's `payload.item` (an item_completed event repeats a history item; the reader reads only token counts
// and rollbacks of events) is left out of the text parsed, and the session read is the one the whole lines give: on
// the lines that could fool the cut, after a real Codex 0.169 rollout's first 80 lines (the format is known by then).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';
import { compacted, seen, wholeLines } from '../../support/wholeLines';

const REAL = path.join(FIXTURES, 'codex', 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl');
const prefix = fs.readFileSync(REAL, 'utf8').split('\n').slice(0, 80);
const pad = 'x'.repeat(4096);
const at = '2026-12-02T16:00:00.000Z';
const line = (type: string, payload: unknown): string => JSON.stringify({ timestamp: at, type, payload });
/** A prompt and its reply after the prefix: the traps' usage attaches to the reply, a rollback removes both. */
const turn = [
  line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'the trap prompt' }] }),
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'the trap reply' }] }),
];
const usage = { total_token_usage: { total_tokens: 987_654_321 }, last_token_usage: { input_tokens: 123_456, cached_input_tokens: 1_000, output_tokens: 77 }, model_context_window: 345_678 };
const item = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `a "quoted" \\ }]{[ é✓😀 ${pad}` }] };

/** name → [trap line, whether the item is cut (never parsed)] */
const traps: Record<string, [string, boolean]> = {
  'a token count with an item before its figures': [line('event_msg', { type: 'token_count', item, info: usage }), true],
  'a rollback with an item before its count': [line('event_msg', { type: 'thread_rolled_back', item, num_turns: 1 }), true],
  'the item first in the payload': [line('event_msg', { item, type: 'token_count', info: usage }), true],
  // The first is cut, the last (null) parsed as JSON.parse keeps it.
  'the item twice': [`${line('event_msg', { type: 'token_count', item, info: usage }).slice(0, -2)},"item":null}}`, true],
  // Read whole: the cut wants the record's closing brace last on the line.
  'a CRLF line end': [`${line('event_msg', { type: 'token_count', item, info: usage })}\r`, false],
  // Not where the field spec says: kept whole.
  'the type not right before the payload': [JSON.stringify({ type: 'event_msg', timestamp: at, payload: { type: 'token_count', item, info: usage } }), false],
  'a response item with an item member': [line('response_item', { type: 'message', role: 'user', item, content: [{ type: 'input_text', text: 'kept whole' }] }), false],
  'an event nested in a message': [line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'nested' }], note: { type: 'event_msg', payload: { item: { keep: pad }, type: 'token_count' } } }), false],
  'the event spelt in a text': [line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `{"type":"event_msg","payload":{"item":{"keep":"${pad}"}}}` }] }), false],
  'an item on a 4 MB line': [line('event_msg', { type: 'token_count', item: { big: 'y'.repeat(4 << 20) }, info: usage }), false],
  'an unterminated item': [`${line('event_msg', { type: 'token_count', info: usage }).slice(0, -2)},"item":{"text":"${pad}`, false],
};

for (const [name, [trap, cut]] of Object.entries(traps)) {
  test(`a Codex line that could fool the cut reads as its whole line does: ${name}`, async (t) => {
    const file = `${tmpDir(t)}/rollout.jsonl`;
    fs.writeFileSync(file, `${[...prefix, ...turn, trap].join('\n')}\n`);
    const parsed: string[] = [];
    const parse = JSON.parse;
    JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => { parsed.push(text); return parse(text, reviver); }) as typeof JSON.parse;
    let session;
    try { session = (await readTranscriptFile(file)).session; } finally { JSON.parse = parse; }
    assert.deepEqual(seen(session), seen(wholeLines(file)));
    // The trap did what it says in the session compared: the figures read, the turn rolled back.
    if (trap.includes('"token_count"') && trap.includes('"info"') && !name.startsWith('an unterminated')) assert.equal(session.contextWindow, 345_678);
    if (trap.includes('thread_rolled_back')) assert.ok(!JSON.stringify(session.messages).includes('the trap prompt'));
    else assert.ok(JSON.stringify(session.messages).includes('the trap reply'));
    // A cut item was never parsed; an item kept whole was.
    assert.equal(parsed.some((p) => p.includes(pad) || p.includes('y'.repeat(1000))), !cut, cut ? 'the item was parsed' : 'the line was not read whole');
    assert.equal(compacted((await readTranscriptFile(file, { keepRaw: true })).session), compacted((await readTranscriptFile(file, { keepRaw: true, lineStore: 'strings' })).session));
  });
}
