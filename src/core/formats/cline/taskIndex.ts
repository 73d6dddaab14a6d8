// The task index each extension lists tasks from, and what the user does to open a written task.
// Cline (3.x, 4.x, CLI): <storage>/state/taskHistory.json, a JSON array of HistoryItem, merged here.
// Roo Code (3.49, Feb 2026, and later): tasks/<id>/history_item.json, picked up by its own reconciliation (fs.watch).
// Kilo Code and older Roo Code: only VS Code's globalState database (state.vscdb), not written from outside.
import type { MergedFile } from '../../agents/agent';
import type { ClineExtra } from './session';
import { VARIANT_LABEL, type ClineVariant } from './paths';

/** Relative to the new task folder (<storage>/tasks/<id>): Cline's index beside its tasks folder. */
export const CLINE_INDEX = '../../state/taskHistory.json';

export interface NewTask { readonly id: string; readonly ts: number; readonly task: string; readonly size: number; readonly cwd?: string; readonly model?: string }

/** The index entry of a new task: a history_item.json (Roo, Kilo) or a merge into Cline's taskHistory.json. */
export function taskIndexEntry(x: ClineExtra, t: NewTask): { file?: string; merge?: MergedFile } {
  // Usage starts at zero: the original was billed once, and Cline sums these figures into its task header.
  const usage = { tokensIn: 0, tokensOut: 0, cacheWrites: 0, cacheReads: 0, totalCost: 0 };
  if (x.variant !== 'cline') {
    const old = x.historyItem ?? {};
    const item = {
      id: t.id, number: typeof old.number === 'number' ? old.number : 1, ts: t.ts, task: t.task, ...usage, size: t.size,
      ...(t.cwd ? { workspace: t.cwd } : {}), ...(typeof old.mode === 'string' ? { mode: old.mode } : {}),
      ...(typeof old.apiConfigName === 'string' ? { apiConfigName: old.apiConfigName } : {}), status: 'active',
    };
    return { file: JSON.stringify(item, null, 2) };
  }
  const item = { id: t.id, ts: t.ts, task: t.task, ...usage, size: t.size, ...(t.cwd ? { cwdOnTaskInitialization: t.cwd } : {}), isFavorited: false, ...(t.model ? { modelId: t.model } : {}) };
  return {
    merge: {
      path: CLINE_INDEX,
      within: 'tasks',
      what: "Cline's task index (state/taskHistory.json)",
      merge(existing) {
        if (existing === undefined || existing.trim() === '') return JSON.stringify([item]);
        let list: unknown;
        try { list = JSON.parse(existing); } catch { return undefined; }
        if (!Array.isArray(list)) return undefined;
        return JSON.stringify([...list.filter((i) => !(typeof i === 'object' && i !== null && (i as { id?: unknown }).id === t.id)), item]);
      },
    },
  };
}

/** How the user opens the written task (the compaction report shows it). */
export function openNote(variant: ClineVariant, id: string): string {
  switch (variant) {
    case 'cline':
      return `Cline lists the new task ${id} in its History (VS Code), and \`cline --taskId ${id}\` resumes it when it is in the Cline CLI's folder (~/.cline/data). If VS Code is open with Cline 3.x running, reload the window (Developer: Reload Window) before using Cline: it keeps its task list in memory and would write it back without the new task.`;
    case 'roo':
      return `Roo Code (3.49 and later) lists the new task ${id} in its History on its own (it watches its tasks folder). Older Roo Code versions keep their task list only in VS Code's state database, which cannot be written safely from outside: there the folder is written but not listed.`;
    case 'kilo':
      return `${VARIANT_LABEL.kilo} keeps its task list in VS Code's state database (state.vscdb), which cannot be written safely from outside while VS Code runs: the new task folder ${id} is written (with a history_item.json) but Kilo Code does not list it. To continue there, start a new Kilo task and paste the summary from the compacted api_conversation_history.json.`;
    default: return variant satisfies never;
  }
}
