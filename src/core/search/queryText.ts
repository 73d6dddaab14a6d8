// A search typed in one box: `agent:`, `project:` and `since:` prefixes (anywhere, values quoted when they hold spaces),
// the rest is the query. The Sessions view's search box reads it; the CLI has flags for the same filters.
import { parseSince } from './since';

export interface TypedQuery {
  /** The query without its prefixes, white space at its ends trimmed. */
  readonly text: string;
  readonly agent?: string;
  readonly project?: string;
  /** ms since the epoch. */
  readonly since?: number;
  /** One line per prefix that could not be used (an unknown agent, a value that is no date). */
  readonly problems: readonly string[];
}

const PREFIX = /(^|\s)(agent|project|since):("([^"]*)"?|\S*)/gi;

/**
 * `agents` are the ids a filter may name (an id or a label, any case: "codex", "claude-code", "Gemini CLI").
 * A prefix with no value is left out of the query, so typing `agent:` does not search for that word meanwhile.
 */
export function parseTypedQuery(typed: string, agents: readonly { id: string; label: string }[], now: number): TypedQuery {
  const problems: string[] = [];
  const found: { agent?: string; project?: string; since?: number } = {};
  const text = typed.replace(PREFIX, (_all, lead: string, name: string, raw: string, quoted: string | undefined) => {
    const value = (quoted ?? raw).trim();
    if (value === '') return lead;
    switch (name.toLowerCase()) {
      case 'agent': {
        const key = value.toLowerCase();
        const hit = agents.find((a) => a.id.toLowerCase() === key || a.label.toLowerCase() === key)
          ?? agents.find((a) => a.id.toLowerCase().startsWith(key) || a.label.toLowerCase().startsWith(key));
        if (hit) found.agent = hit.id;
        else problems.push(`agent:${value} is no agent (one of ${agents.map((a) => a.id).join(', ')})`);
        break;
      }
      case 'project':
        found.project = value;
        break;
      default: {
        const since = parseSince(value, now);
        if (since === undefined) problems.push(`since:${value} needs a date (2026-12-01) or an age (12h, 7d, 2w)`);
        else found.since = since;
      }
    }
    return lead;
  }).replace(/\s+/g, ' ').trim();
  return { text, ...found, problems };
}
