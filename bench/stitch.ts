// Stitches copies of one real Claude Code session into a longer one: ids re-keyed per copy, copies chained.
import { createHash } from 'node:crypto';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys whose string values are identifiers that must be unique per copy. */
const ID_KEYS = new Set([
  'uuid', 'parentUuid', 'logicalParentUuid', 'leafUuid', 'sessionId', 'promptId', 'requestId', 'requestRef',
  'sourceToolAssistantUUID', 'toolUseID', 'tool_use_id', 'parentToolUseID', 'base',
]);
/** Record or block types whose `id` is an identifier (api-request ids, message.id, tool_use ids). */
const ID_OWNERS = new Set(['api-request', 'message', 'tool_use', 'server_tool_use']);
/** Tokens that can be ids; only those collected from id fields are rewritten, wherever they occur. */
const TOKEN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b(?:msg|toolu|srvtoolu|req)_[A-Za-z0-9]+/g;
const TIMESTAMP = /"timestamp":"([^"]+)"/g;

export interface SessionShape {
  readonly lines: readonly string[];
  /** Every identifier found in an id field. */
  readonly ids: ReadonlySet<string>;
  /** Line index of the root record (parentUuid null) and the last uuid in file order. */
  readonly rootLine: number;
  readonly lastUuid: string;
  readonly firstMs: number;
  readonly lastMs: number;
}

function collectIds(v: unknown, ids: Set<string>): void {
  if (Array.isArray(v)) { for (const x of v) collectIds(x, ids); return; }
  if (!isObj(v)) return;
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string' && (ID_KEYS.has(k) || (k === 'id' && typeof v.type === 'string' && ID_OWNERS.has(v.type)))) ids.add(x);
    else if (k === 'message' && isObj(x) && typeof x.id === 'string') ids.add(x.id);
    if (typeof x === 'object') collectIds(x, ids);
  }
}

export function analyse(text: string): SessionShape {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  const ids = new Set<string>();
  let rootLine = -1, lastUuid = '', firstMs = Infinity, lastMs = -Infinity;
  lines.forEach((line, i) => {
    const o = JSON.parse(line) as Obj;
    collectIds(o, ids);
    if (o.parentUuid === null && 'uuid' in o) {
      if (rootLine !== -1) throw new Error(`stitch: more than one root (lines ${rootLine + 1} and ${i + 1})`);
      rootLine = i;
    }
    if (typeof o.uuid === 'string') lastUuid = o.uuid;
    if (typeof o.timestamp === 'string') {
      const ms = Date.parse(o.timestamp);
      firstMs = Math.min(firstMs, ms);
      lastMs = Math.max(lastMs, ms);
    }
  });
  if (rootLine === -1 || !lastUuid) throw new Error('stitch: no root record or no uuid');
  return { lines, ids, rootLine, lastUuid, firstMs, lastMs };
}

/** A stable new id of the same shape (uuid stays a uuid; prefixed ids keep their prefix). */
function rekey(id: string, copy: number): string {
  const h = createHash('sha1').update(`${copy}:${id}`).digest('hex');
  if (/^[0-9a-f]{8}-/.test(id)) return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  const us = id.indexOf('_');
  return `${id.slice(0, us + 1)}${h.slice(0, Math.max(8, id.length - us - 1))}`;
}

/**
 * Lines of copy `copy` (0 = the original, verbatim). Ids are rewritten by exact token, so references
 * inside content (e.g. tool-results/<sessionId>/ paths) move with them; timestamps shift by whole
 * session spans so they keep increasing; the root is chained to `prevLastUuid` (already re-keyed).
 */
export function* copyLines(shape: SessionShape, copy: number, prevLastUuid: string | undefined): Generator<string> {
  if (copy === 0) { yield* shape.lines; return; }
  const map = new Map<string, string>();
  const idOf = (t: string): string => {
    if (!shape.ids.has(t)) return t;
    let r = map.get(t);
    if (r === undefined) { r = rekey(t, copy); map.set(t, r); }
    return r;
  };
  const shiftMs = copy * (shape.lastMs - shape.firstMs + 1000);
  for (let i = 0; i < shape.lines.length; i++) {
    let line = shape.lines[i]!.replace(TOKEN, idOf).replace(TIMESTAMP, (_m, ts: string) => {
      const ms = Date.parse(ts);
      return Number.isNaN(ms) ? _m : `"timestamp":"${new Date(ms + shiftMs).toISOString()}"`;
    });
    if (i === shape.rootLine) {
      if (!prevLastUuid) throw new Error('stitch: copy > 0 needs the previous copy\'s last uuid');
      const before = line;
      line = line.replace('"parentUuid":null', `"parentUuid":"${prevLastUuid}"`);
      if (line === before) throw new Error('stitch: root record has no compact "parentUuid":null');
    }
    yield line;
  }
}

/** The last uuid of copy `copy`, as copyLines writes it. */
export function lastUuidOf(shape: SessionShape, copy: number): string {
  return copy === 0 ? shape.lastUuid : rekey(shape.lastUuid, copy);
}
