// A Gemini CLI subagent chat opens with `# Initial Context` (the memory files, ~30K tokens) then the task: the memory
// is the harness's context and the title is the task (it read "# Initial Context --- Global ---…", all history).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { it } from 'node:test';
import { geminiCli } from '../../../src/core/formats/gemini-cli/agent';
import type { Block, Session } from '../../../src/core/model/transcript';
import { typedWords } from '../../../src/core/model/userWords';
import { titleFromMessages } from '../../../src/core/usage/title';
import { serializeLines } from '../../../src/core/write/serialize';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES, linesOf } from '../../support/fixtures';

// LAF-US/IDAHO-VAULT .gemini/tmp/idaho-vault/chats/b1f31681-…/tl63m8.json (a save-memory subagent; see real/SOURCES.tsv).
const SUBAGENT = path.join(FIXTURES, 'real', 'gemini-cli', 'idaho-subagent-initial-context.json');
const TASK = "Remember that 'LAF-*' is the convention for development ticketing modifier tags.";
const ctx = (): { newId: () => string; now: () => Date } => {
  let n = 0;
  return { newId: () => `id-${++n}`, now: () => new Date('2026-12-06T10:00:00Z') };
};
const written = (s: Session, cleaned: Session): Record<string, unknown>[] =>
  [...serializeLines(linesOf(geminiCli.write(s, cleaned, ctx())))].join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

it('a subagent chat: the initial context is harness, the task after it is the prompt and the title', async () => {
  const s = (await readTranscriptFile(SUBAGENT, { keepRaw: true })).session;
  const first = s.messages[0]!;
  assert.equal(first.role, 'user');
  const [context, task] = first.blocks;
  assert.equal(context?.type, 'meta');
  assert.equal(context?.type === 'meta' && context.subtype, 'harness');
  assert.ok(context!.tokens > 20_000, `the memory files are the bulk: ${context!.tokens}`);
  assert.equal(task?.type, 'text');
  assert.equal(task?.type === 'text' && task.text.trim(), TASK);
  assert.ok(task!.tokens < 100);
  assert.equal(titleFromMessages(s.messages), TASK);
  // Its `summary` is the complete_task result (`{"response": …}`), not a title.
  assert.equal(s.title, TASK);
  assert.equal(typedWords((context as Block & { text: string }).text), '', 'the memory alone holds no typed words');
  // Written back unchanged, the part is the original part, whole, once.
  const out = written(s, s);
  const original = (s.extra as { entries: { message: { content: unknown } }[] }).entries[0]!.message.content;
  assert.deepEqual(out[1]!.content, original);
  // The memory dropped (a cleaned copy without it): the task alone is written, as one part.
  const cleaned: Session = { ...s, messages: [{ ...first, blocks: [task!] }, ...s.messages.slice(1)] };
  assert.deepEqual(written(s, cleaned)[1]!.content, [{ text: (task as Block & { text: string }).text }]);
});
