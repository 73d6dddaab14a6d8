// The rows of the Sessions view's search box, built from a search result: one per match, what matched on top, where
// below (no vscode: unit tested; src/vscode/searchBox.ts turns them into quick pick items).
import { agentModule, AGENT_IDS } from '../../core/formats/registry';
import type { AgentId } from '../../core/model/ids';
import { oneLine } from '../../core/search/snippet';
import type { MessageTarget } from '../../protocol/messages';
import { baseName, rowTitle, shortAge } from '../sessions/rowText';
import type { SearchResult } from './searchSessions';

export interface SearchPick {
  readonly file: string;
  readonly target: MessageTarget;
  /** The kind and where: "tool result · message 12". */
  readonly label: string;
  /** The session: title · agent · project folder · age. */
  readonly description: string;
  /** The snippet, on its own line (the quick pick's detail). */
  readonly detail: string;
}

/** Codicon per kind, so a column of results reads at a glance. */
export const KIND_ICONS: Readonly<Record<string, string>> = {
  prompt: 'account', reply: 'hubot', 'tool call': 'tools', 'tool result': 'output', reasoning: 'lightbulb', summary: 'fold',
};

/** What agent: and the other prefixes may name: every agent by id and label. */
export const AGENT_NAMES: readonly { id: string; label: string }[] = AGENT_IDS.map((id) => ({ id, label: agentModule(id).label }));

/**
 * One row per block that matched (several matches in one block are one row: the first, with how many), at most
 * `perSession` rows per session and `max` in all. The session goes agent first: what the filters name, and what a cut
 * at the box's right edge must not lose; the title last.
 */
export function searchPicks(result: SearchResult, now: number, perSession = 5, max = 200): SearchPick[] {
  const out: SearchPick[] = [];
  for (const s of result.sessions) {
    const agent = (AGENT_IDS as readonly string[]).includes(s.agent) ? agentModule(s.agent as AgentId).label : s.agent;
    const where = [agent, s.project ? baseName(s.project) : '', shortAge(s.lastTimestamp, now), rowTitle(oneLine(s.title ?? s.sessionId), 60)].filter(Boolean).join(' · ');
    const blocks = new Map<string, { hit: (typeof s.hits)[number]; matches: number }>();
    for (const hit of s.hits) {
      const key = `${hit.message}:${hit.record}:${hit.kind}`;
      const seen = blocks.get(key);
      if (seen) seen.matches++;
      else if (blocks.size < perSession) blocks.set(key, { hit, matches: 1 });
    }
    for (const { hit, matches } of blocks.values()) {
      if (out.length >= max) return out;
      out.push({
        file: s.file,
        target: { message: hit.message, record: hit.record, kind: hit.kind, snippet: hit.snippet },
        label: `$(${KIND_ICONS[hit.kind] ?? 'search'}) ${hit.kind} · message ${hit.message + 1}${matches > 1 ? ` · ${matches} matches` : ''}`,
        description: where,
        detail: hit.snippet.text,
      });
    }
  }
  return out;
}

/** The title line after a search: how many matches in how many sessions, of how many searched. */
export function resultLine(result: SearchResult): string {
  const matches = result.sessions.reduce((n, s) => n + s.count, 0);
  const shown = result.sessions.reduce((n, s) => n + s.hits.length, 0);
  const more = shown < matches ? ` (${shown} listed)` : '';
  return `${matches} ${matches === 1 ? 'match' : 'matches'} in ${result.sessions.length} of ${result.stats.sessions} sessions${more}`;
}
