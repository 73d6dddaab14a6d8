// `context-compactor search QUERY [DIR...]`: every session of every agent on the machine, matched through the search index.
import { AGENT_IDS } from '../core/formats/registry';
import { makeQuery } from '../core/search/match';
import { jsonText } from '../core/text/terminal';
import { oneLine } from '../core/search/snippet';
import { parseSince } from '../core/search/since';
import { searchSessions, type SearchResult } from '../node/search/searchSessions';
import { parseArgs, wholeNumber } from './args';
import { commandHelp } from './help';
import type { CliIo } from './io';


const SPEC = { agent: 'value', project: 'value', since: 'value', limit: 'value', json: 'flag', regex: 'flag', 'no-cache': 'flag', help: 'flag' } as const;

function renderText(r: SearchResult): string {
  const lines: string[] = [];
  for (const s of r.sessions) {
    const title = oneLine(s.title ?? s.sessionId).slice(0, 100);
    const when = s.lastTimestamp ? s.lastTimestamp.slice(0, 16).replace('T', ' ') : '';
    lines.push(`${title} — ${[s.agent, s.project ? oneLine(s.project) : '', when].filter(Boolean).join(' · ')} (${s.count} ${s.count === 1 ? 'match' : 'matches'})`);
    lines.push(`  ${oneLine(s.file)}`);
    for (const h of s.hits) lines.push(`  #${h.message + 1} ${h.kind}: ${h.snippet.text}`);
    if (s.hits.length < s.count) lines.push(`  … ${s.count - s.hits.length} more`);
    lines.push('');
  }
  const total = r.sessions.reduce((n, s) => n + s.count, 0);
  lines.push(`${total} ${total === 1 ? 'match' : 'matches'} in ${r.sessions.length} of ${r.stats.sessions} sessions`);
  return `${lines.join('\n')}\n`;
}

export async function runSearch(args: string[], io: CliIo): Promise<number> {
  const p = parseArgs(args, SPEC);
  if (p.ok && p.flags.help) { io.stdout(commandHelp('search')); return 0; }
  const fail = (msg: string): number => { io.stderr(`context-compactor search: ${msg} (see context-compactor search --help)\n`); return 2; };
  if (!p.ok) return fail(p.error);
  const [text, ...dirs] = p.positional;
  if (text === undefined) return fail('a QUERY is needed');
  const agent = p.values.agent;
  if (agent !== undefined && !(AGENT_IDS as readonly string[]).includes(agent)) return fail(`unknown agent '${agent}' (one of ${AGENT_IDS.join(', ')})`);
  const since = p.values.since === undefined ? undefined : parseSince(p.values.since, Date.now());
  if (p.values.since !== undefined && since === undefined) return fail(`--since needs a date (2026-12-01) or an age (7d), got '${p.values.since}'`);
  const limit = wholeNumber(p.values.limit, 5);
  if (limit === undefined) return fail(`--limit needs a whole number, got '${p.values.limit}'`);
  const query = makeQuery(text, p.flags.regex === true);
  if (typeof query === 'string') return fail(query);
  // Asked only when a session is indexed: process.stderr loads Node's stream modules, a warm search's start-up.
  let tty: boolean | undefined;
  let shown = false;
  let last = 0;
  const result = await searchSessions({
    env: io.env, query, agent, project: p.values.project, since, limit,
    extraDirs: dirs, includeDefaults: dirs.length === 0, useCache: p.flags['no-cache'] !== true,
    // A cold search says how far it is; the line redraws itself (its controls pass raw, it holds only numbers).
    progress: (done, total, indexed) => {
      tty ??= process.stderr.isTTY === true && io.raw !== undefined;
      if (!tty) return;
      const now = Date.now();
      if (now - last < 200 && done !== total) return;
      shown = true;
      last = now;
      io.raw?.stderr(`\rindexed ${indexed}, checked ${done}/${total} sessions\x1b[K`);
    },
  });
  if (shown) io.raw?.stderr('\n');
  for (const w of result.warnings) io.stderr(`warning: ${w}\n`);
  if (p.flags.json) {
    io.stdout(`${jsonText({ query: query.source, regex: query.regex, sessions: result.sessions, stats: result.stats, warnings: result.warnings })}\n`);
  } else if (result.sessions.length > 0) {
    io.stdout(renderText(result));
  }
  if (result.sessions.length === 0) {
    io.stderr(`no matches for ${JSON.stringify(oneLine(text))} in ${result.stats.sessions} sessions\n`);
    return 1;
  }
  return 0;
}
