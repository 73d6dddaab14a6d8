// The resume proof of OpenCode and its fork Kilo CLI: the real CLI, offline against a loopback Messages API, imports
// and continues our compacted session; the original is imported from its `<cli> export`, compacted from the CLI's own
// database (opencode.db, kilo.db).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SqliteDatabase } from '../../src/core/read/sqlite/database';
import { nodeFs } from '../../src/node/documentSessions';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import { describeRun, NEW_PROMPT, opencodeLoopbackHome, runAgent } from './harness';
import { KEY, pickFacts, resumeSuite, type Located } from './resumeSuite';
import { messagesApi } from './wire';

type Obj = Record<string, any>;

/** What differs between the forks: the CLI's name (command, config and data folder, database) and the fixture. */
export interface OpencodeFork { readonly name: 'opencode' | 'kilo'; readonly label: string; readonly exportFile: string }

export function opencodeFamilyResume({ name, label, exportFile: EXPORT }: OpencodeFork): void {
  const exported = (): Obj => JSON.parse(fs.readFileSync(EXPORT, 'utf8'));
  const SESSION = exported().info.id as string;

  /** Sorted-key JSON: the same record from an export file and from a database row compare equal. */
  const canonical = (v: unknown): string =>
    JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));
  const without = (o: Obj, ...keys: string[]): Obj => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

  /**
   * The original session's messages and parts (import re-homes the session itself to the importing project): from the
   * export file, or from the rows of OpenCode's database (`<db>#<id>`), read directly.
   */
  function fingerprint(file: string): string {
    let messages: [string, Obj, [string, Obj][]][];
    // Kilo's import leaves out the time of step-start parts (OpenCode's keeps it): not part of what is compared.
    const part = (p: Obj): Obj => without(p, 'id', 'sessionID', 'messageID', ...(p.type === 'step-start' ? ['time'] : []));
    if (file.endsWith('.json')) {
      messages = exported().messages.map((m: Obj) => [m.info.id, without(m.info, 'id', 'sessionID'), m.parts.map((p: Obj) => [p.id, part(p)])]);
    } else {
      const db = file.slice(0, file.lastIndexOf('#'));
      const d = SqliteDatabase.open(nodeFs.open(db)!, nodeFs.open(`${db}-wal`));
      const parts = d.rowsWhere('part', 'session_id', SESSION).sort((a, b) => String(a.id).localeCompare(String(b.id)));
      messages = d.rowsWhere('message', 'session_id', SESSION).sort((a, b) => Number(a.time_created) - Number(b.time_created) || String(a.id).localeCompare(String(b.id)))
        .map((m) => [String(m.id), JSON.parse(String(m.data)), parts.filter((p) => p.message_id === m.id).map((p) => [String(p.id), part(JSON.parse(String(p.data)))])]);
    }
    return createHash('sha256').update(canonical(messages)).digest('hex');
  }

  /** Tool calls and results of an export file: each tool part is both. */
  function toolIds(file: string): { calls: string[]; results: string[] } {
    const parts = (JSON.parse(fs.readFileSync(file, 'utf8')).messages as Obj[]).flatMap((m) => m.parts as Obj[]).filter((p) => p.type === 'tool');
    return { calls: parts.map((p) => p.callID), results: parts.filter((p) => p.state?.status === 'completed' || p.state?.status === 'error').map((p) => p.callID) };
  }

  resumeSuite({
    agent: name,
    title: `${label} imports and continues a compacted session (real CLI, loopback API)`,
    fixture: EXPORT,
    unit: 'messages',
    startFake: startFakeAnthropic,
    fingerprint,
    facts: () => {
      const prompts: Located[] = [];
      const results: (Located & { id: string })[] = [];
      (exported().messages as Obj[]).forEach((m, at) => {
        for (const p of m.parts as Obj[]) {
          if (m.info.role === 'user' && p.type === 'text' && !p.synthetic) prompts.push({ at, text: p.text });
          if (p.type === 'tool' && p.state?.status === 'completed') results.push({ at, id: p.callID, text: p.state.output });
        }
      });
      return pickFacts(SESSION, prompts, results);
    },
    prepare: async (root, fake, _facts, bin) => {
      const { cwd, home, env } = opencodeLoopbackHome(root, fake.url, KEY, name);
      // The original enters the CLI's own database the way a user's session would be there.
      const imported = await runAgent(bin, ['import', EXPORT], cwd, env);
      assert.equal(imported.code, 0, describeRun(imported));
      return { env, cwd, stored: `${path.join(home, '.local', 'share', name, `${name}.db`)}#${SESSION}` };
    },
    // Beside the database, as export JSON to import.
    expectedOutput: (report) => path.join(path.dirname(report.input), `${report.sessionId}.json`),
    beforeResume: async (report, run) => {
      assert.match(report.resumeCommand, new RegExp(`^${name} import .+ && ${name} --session ses_`));
      const imported = await run(['import', report.output!]);
      assert.equal(imported.code, 0, describeRun(imported));
      assert.ok(imported.stdout.includes(report.sessionId), `import did not report ${report.sessionId}: ${imported.stdout}`);
      const listed = await run(['session', 'list']);
      assert.ok(listed.stdout.includes(report.sessionId), `${label} does not list the compacted session: ${listed.stdout}`);
    },
    resumeArgs: (id) => ['run', '--session', id, '--', NEW_PROMPT],
    ...messagesApi,
    fileToolIds: toolIds,
  });
}
