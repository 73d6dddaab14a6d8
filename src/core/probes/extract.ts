// The independent probe set: facts a continuation needs, read from the original's raw records (see dialects.ts).
import { probeEvents } from './dialects';
import { identifiersIn } from './identifiers';
import { clip, keyWords, norm } from './normalize';
import { READ_TOOL } from './tools';
import { PROBE_KINDS, type Probe, type ProbeEvent, type ProbeKind, type RawSource } from './types';

/** At most this many probes per kind, the most recent first: a long session must not drown the rest. */
export const PER_KIND = 10;

/** Lines of a tool output that frame it rather than say anything (exit-code headers, timings, truncation notes). */
const HEADER = /^(?:exit code:? -?\d+|process exited with code|wall time:|output:$|command failed|original token count|chunk id|total output lines|<\/?tool_use_error>$|error: exit code \d+$|\[?stderr\]?:?$|\[?stdout\]?:?$)/i;
const ERROR = /\b(?:error|fatal|exception|failed|failure|panic|denied|not found|no such file|cannot|can't|unable to|invalid|refused|rejected|undefined|unexpected|conflict)\b/i;
/** What a user says to bind the agent (English, Portuguese, Chinese). */
const CONSTRAINT = /\b(?:don'?t|do not|never|must(?:n'?t| not)?|should(?:n'?t| not)|avoid|always|make sure|instead of|rather than|not allowed|no need to|não|nunca|sempre)\b|不要|别|必须|禁止|不能|只用/i;
const IMPERATIVE = /^(?:please\s+)?(?:use|keep|stick to|prefer|only use|leave)\b/i;

/** The first line of a failed output that says what went wrong: not its header, a Python traceback's last line. */
export function errorLine(text: string): string {
  const lines = text.replace(/<\/?tool_use_error>/g, '').split('\n').map((l) => l.trim()).filter((l) => l && !HEADER.test(l));
  if (lines[0]?.startsWith('Traceback')) return [...lines].reverse().find((l) => /^[\w.]*(?:Error|Exception)\b/.test(l)) ?? lines[0];
  return lines.find((l) => ERROR.test(l)) ?? lines[0] ?? '';
}

/** A command by its first line that runs something (comments skipped): a multi-line script is probed by its text. */
export function commandLine(cmd: string): string {
  return cmd.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('#')) ?? '';
}

/** Sentences (and list items) of a prompt that bind the agent. */
export function constraintSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const s of line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').split(/(?<=[.!?。！？])\s+/)) {
      const t = s.trim();
      if (t.length >= 8 && t.length <= 400 && (CONSTRAINT.test(t) || IMPERATIVE.test(t))) out.push(t);
    }
  }
  return out;
}

class Recent {
  private readonly by = new Map<ProbeKind, Map<string, Probe>>();
  add(kind: ProbeKind, key: string, p: Probe): void {
    const m = this.by.get(kind) ?? new Map<string, Probe>();
    this.by.set(kind, m);
    m.delete(key); // re-insert: the last seen is the most recent
    m.set(key, p);
  }
  update(kind: ProbeKind, key: string, f: (p: Probe) => Probe): void {
    const m = this.by.get(kind);
    const p = m?.get(key);
    if (m && p) m.set(key, f(p));
  }
  newest(): Probe[] { return PROBE_KINDS.flatMap((k) => [...(this.by.get(k)?.values() ?? [])].reverse().slice(0, PER_KIND)); }
}

/** A path as written and relative to the session's folder; with at least two segments, its last two. */
function pathNeedles(p: string, cwd: string | undefined): string[] {
  const abs = norm(p);
  const base = cwd ? norm(cwd).replace(/\/+$/, '') : '';
  const rel = base.length > 1 && abs.startsWith(`${base}/`) ? abs.slice(base.length + 1) : abs;
  const parts = rel.split('/').filter(Boolean);
  return [...new Set([abs, rel, parts.length >= 2 ? parts.slice(-2).join('/') : rel])].filter((s) => s.length >= 3);
}

const textProbe = (kind: 'requests' | 'constraints', label: string, text: string): Probe =>
  ({ kind, label: `${label}: ${clip(text.replace(/\s+/g, ' '), 100)}`, needles: [clip(norm(text), 100)], words: keyWords(text).slice(0, 12) });

/**
 * Probes of a raw original; deterministic, capped per kind (the most recent first). By default from the context the
 * agent holds: what it compacted away itself (before its last compaction) is not looked for; `wholeFile` reads all.
 */
export function extractProbes(source: RawSource, options: { readonly wholeFile?: boolean } = {}): Probe[] {
  return probesOfEvents(liveEvents(probeEvents(source), options.wholeFile === true));
}

function liveEvents(events: ProbeEvent[], wholeFile: boolean): ProbeEvent[] {
  let at = -1;
  if (!wholeFile) for (let i = events.length - 1; i >= 0 && at < 0; i--) if (events[i]!.t === 'boundary') at = i;
  if (at < 0) return events;
  const b = events[at] as Extract<ProbeEvent, { t: 'boundary' }>;
  return [...events.slice(0, at).filter((e) => e.t === 'cwd' || (b.keepsPrompts && e.t === 'prompt')), ...events.slice(at + 1)];
}

export function probesOfEvents(events: readonly ProbeEvent[]): Probe[] {
  const cwd = events.find((e): e is Extract<ProbeEvent, { t: 'cwd' }> => e.t === 'cwd')?.cwd;
  const calls = new Map<string, Extract<ProbeEvent, { t: 'call' }>>();
  const recent = new Recent();
  const failures: { key: string; line: string }[] = [];
  const ids = (text: string, prose: boolean): void => { for (const f of identifiersIn(text.length > 50_000 ? text.slice(-50_000) : text, prose)) recent.add(f.kind, f.key, f.probe); };
  for (const e of events) {
    if (e.t === 'prompt') {
      if (!/[\p{L}\p{N}]{2}/u.test(e.text)) continue; // "!", "?": nothing to keep
      recent.add('requests', norm(e.text), textProbe('requests', 'request', e.text));
      for (const s of constraintSentences(e.text)) recent.add('constraints', norm(s), textProbe('constraints', 'constraint', s));
      ids(e.text, true);
    } else if (e.t === 'say') ids(e.text, true);
    else if (e.t === 'call') {
      calls.set(e.id, e);
      for (const f of e.files) recent.add('files', norm(f), { kind: 'files', label: `file ${f}`, needles: pathNeedles(f, cwd) });
      const line = e.command !== undefined && e.files.length === 0 ? commandLine(e.command) : '';
      if (line.length >= 2) recent.add('commands', norm(line), { kind: 'commands', label: `command ${clip(line, 80)}`, needles: [...new Set([clip(norm(line), 80), clip(pathNeedles(line, cwd)[1] ?? norm(line), 80)])] });
      ids(e.text, e.command !== undefined);
      // A later run of what failed, this time without failing, fixed it.
    } else if (e.t === 'result') {
      const call = calls.get(e.id);
      const key = call ? callKey(call) : undefined;
      if (!e.failed && key) for (const f of failures.filter((x) => x.key === key)) recent.update('errors', f.line, (p) => ({ ...p, label: p.label.replace(/^error \(open\)/, 'error (fixed later)') }));
      if (e.failed) {
        const line = errorLine(e.text);
        if (line) {
          recent.add('errors', norm(line), { kind: 'errors', label: `error (open): ${clip(line, 100)}`, needles: [...new Set([clip(norm(line), 100), clip(pathNeedles(line, cwd)[1] ?? norm(line), 100)])] });
          if (key) failures.push({ key, line: norm(line) });
        }
      }
      if (!call || !READ_TOOL.test(call.name)) ids(e.text.split('\n').filter((l) => !HEADER.test(l.trim())).join('\n'), false);
    }
  }
  return recent.newest();
}

/** Same tool, same target: a command's first two words, or the file written. */
function callKey(c: Extract<ProbeEvent, { t: 'call' }>): string {
  if (c.command !== undefined) return `${c.name} ${commandLine(c.command).split(/\s+/).slice(0, 2).join(' ')}`;
  return `${c.name} ${c.files[0] ?? clip(c.text, 200)}`;
}
