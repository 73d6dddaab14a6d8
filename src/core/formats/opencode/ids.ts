// OpenCode's ids (`ses_…`, `msg_…`, `prt_…`): 12 hex digits of time and counter, then 14 base62 characters.
// Sessions sort newest first (the time part inverted), messages and parts oldest first, as OpenCode makes them.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** An id OpenCode could have made: a prefix, 12 hex digits, 14 base62 characters (26 after the underscore). */
export const isOpencodeId = (id: string, prefix: 'ses' | 'msg' | 'prt'): boolean => new RegExp(`^${prefix}_[0-9a-f]{12}[0-9A-Za-z]{14}$`).test(id);

/** 14 base62 characters from the last 20 hex digits (80 random bits) of a UUID (core has no crypto of its own). */
function randomPart(uuid: string): string {
  let v = BigInt(`0x${uuid.replace(/[^0-9a-f]/gi, '').padStart(20, '0').slice(-20)}`);
  let out = '';
  for (let i = 0; i < 14; i++) { out += BASE62[Number(v % 62n)]; v /= 62n; }
  return out;
}

/** The 12 hex digits of `ms * 4096 + counter` (its low 48 bits), inverted for descending ids. */
function timePart(ms: number, counter: number, descending: boolean): string {
  let v = BigInt(Math.max(0, Math.floor(ms))) * 4096n + BigInt(counter);
  if (descending) v = ~v;
  return (v & 0xffffffffffffn).toString(16).padStart(12, '0');
}

/** A session id from a UUIDv7 (its first 48 bits are the time in ms), or the id itself when it is one already. */
export function sessionIdFrom(uuid: string): string {
  if (isOpencodeId(uuid, 'ses')) return uuid;
  const hex = uuid.replace(/-/g, '');
  const ms = /^[0-9a-f]{12}/i.test(hex) ? parseInt(hex.slice(0, 12), 16) : 0;
  return `ses_${timePart(ms, 1, true)}${randomPart(hex)}`;
}

/** Ascending message and part ids for a new session: one counter, so their order is the order they are made in. */
export function idMaker(atMs: number, random: () => string): (prefix: 'msg' | 'prt') => string {
  let counter = 0;
  return (prefix) => `${prefix}_${timePart(atMs, ++counter, false)}${randomPart(random())}`;
}
