// Claude Code subagent transcripts (2.0: `agent-<hex>.jsonl` beside the session; 2.1: `<session>/subagents/agent-*.jsonl`)
// belong under the session that started them, not beside it as sessions of their own.
import type { SessionUsage } from '../../core/usage/types';

const AGENT_FILE = /(^|[\\/])agent-[^\\/]*\.jsonl$/;
const SUBAGENTS_DIR = /^(.*)[\\/]([^\\/]+)[\\/]subagents[\\/][^\\/]+\.jsonl$/;
const dirOf = (file: string): string => file.replace(/[\\/][^\\/]*$/, '');

export function isSubagentFile(s: SessionUsage): boolean {
  return s.agent === 'claude-code' && (AGENT_FILE.test(s.file) || SUBAGENTS_DIR.test(s.file));
}

/**
 * Splits the sessions into those shown as rows and, per parent file, its subagents. The parent is the 2.1 layout's
 * `<session>.jsonl` beside the `<session>/` folder, else the session in the same folder whose id the subagent
 * records (its records carry the parent's sessionId). A subagent whose parent is not listed stays a row of its own.
 */
export function nestSubagents(sessions: readonly SessionUsage[]): { top: SessionUsage[]; subagentsOf: Map<string, SessionUsage[]> } {
  const byFile = new Map<string, SessionUsage>();
  const byDirAndId = new Map<string, SessionUsage>();
  for (const s of sessions) {
    if (isSubagentFile(s)) continue;
    byFile.set(s.file, s);
    if (s.agent === 'claude-code') byDirAndId.set(`${dirOf(s.file)}\u0000${s.sessionId}`, s);
  }
  const top: SessionUsage[] = [];
  const subagentsOf = new Map<string, SessionUsage[]>();
  for (const s of sessions) {
    if (!isSubagentFile(s)) { top.push(s); continue; }
    const layout21 = SUBAGENTS_DIR.exec(s.file);
    const parent = (layout21 ? byFile.get(`${layout21[1]}${s.file.includes('\\') ? '\\' : '/'}${layout21[2]}.jsonl`) : undefined)
      ?? byDirAndId.get(`${dirOf(s.file)}\u0000${s.sessionId}`);
    if (!parent) { top.push(s); continue; }
    const list = subagentsOf.get(parent.file) ?? [];
    list.push(s);
    subagentsOf.set(parent.file, list);
  }
  return { top, subagentsOf };
}
