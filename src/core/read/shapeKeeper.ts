// Keeps one small copy of each record structure met alive, so the hidden classes of parsed records outlive a full GC.
//
// Why: V8 holds the hidden classes ("maps") JSON.parse makes for records only weakly. When no record of a session is
// left (the session was read, reported and dropped), the next major GC frees them, and every optimized reader function
// that had them built in is thrown away; the next read makes new maps and V8 recompiles the reader from scratch — most
// of what an 8 MB inspect adds over JSON.parse itself. The extension host lives exactly this: one long-running process
// that re-reads sessions with major GCs in between (as the bench does with its gc() before each run). A skeleton copy
// of each structure (strings emptied, numbers replaced by one of the same representation), made by JSON.parse too, has
// the very same maps: holding it keeps them and the optimized code valid. Bounded: at most MAX_SHAPES skeletons and
// MAX_CHARS characters of their text in the whole process; past that, reading is as before (only slower), never wrong.

/** Structures kept in the whole process (a Claude Code session has ~40, a Codex one fewer). */
export const MAX_SHAPES = 512;
/** Characters of skeleton text kept in the whole process (~a few hundred bytes a structure). */
export const MAX_CHARS = 512 * 1024;

/** Nesting the structure hash descends into (records nest a few levels; tool schemas a dozen). */
const MAX_DEPTH = 64;
/**
 * Values a kept structure may hold (real records: 19 at the median, 1,151 at most over the corpus): a record with more
 * (50,000 numbers) is a structure of its own lengths, and its skeleton cost ~5× its JSON.parse.
 */
const MAX_VALUES = 4096;
/** Values the current shapeHash may still visit. */
let valuesLeft = 0;

const kept: unknown[] = [];
const seen = new Set<number>();
let keptChars = 0;
/** Small numbers for key names: hashing a key is then one Map lookup on a string V8 has already hashed. */
const keyIds = new Map<string, number>();

const mix = (h: number, v: number): number => Math.imul(h ^ v, 0x5bd1e995) >>> 0;

/** What shapeHash returns for a structure that is not kept (a key that is not a field name). */
const NOT_KEPT = -1;

/**
 * A key an agent's writer chose (`parentUuid`, `tool_use_id`): kept by name. Any other key is the user's text (a map
 * keyed by path, a model's broken JSON holding a whole call in a key): its structure is not kept, so no skeleton or
 * key table holds user text for the life of the process, and the table's size stays bounded (4,096 × 64 characters).
 */
const FIELD_NAME = /^[A-Za-z_$][\w$-]{0,63}$/;

/**
 * A hash of the value's structure: keys in order, value kinds (numbers by representation), arrays' elements;
 * NOT_KEPT when a key is not a field name, the key table is full or the value holds more than MAX_VALUES values.
 */
function shapeHash(v: unknown, h: number, depth: number): number {
  if (--valuesLeft < 0) return NOT_KEPT;
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'number') return mix(h, (v | 0) === v ? 3 : 4);
    return mix(h, typeof v === 'string' ? 1 : v === null ? 2 : 5);
  }
  // Hostile nesting (safeJson.ts) must not overflow the stack: below this depth only "something" is hashed.
  if (depth > MAX_DEPTH) return mix(h, 10);
  if (Array.isArray(v)) {
    h = mix(h, 6);
    for (let i = 0; i < v.length; i++) if ((h = shapeHash(v[i], h, depth + 1)) === NOT_KEPT) return NOT_KEPT;
    return mix(h, 7);
  }
  h = mix(h, 8);
  for (const k in v) {
    let id = keyIds.get(k);
    if (id === undefined) {
      // A record with unbounded key names (e.g. a map keyed by path) must not grow the table without end.
      if (keyIds.size >= 4096 || !FIELD_NAME.test(k)) return NOT_KEPT;
      id = keyIds.size + 16;
      keyIds.set(k, id);
    }
    if ((h = shapeHash((v as Record<string, unknown>)[k], mix(h, id), depth + 1)) === NOT_KEPT) return NOT_KEPT;
  }
  return mix(h, 9);
}

/**
 * JSON text of the value with every string emptied and every number replaced by one of its representation (0 for a
 * small integer, 0.5 otherwise): the same keys, key order, field representations and nesting, none of the values.
 */
const skeletonText = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' ? '' : typeof x === 'number' ? ((x | 0) === x ? 0 : 0.5) : x));

/**
 * Notes one parsed record (an object or array from JSON.parse): the first record of each structure is kept as a
 * skeleton made by JSON.parse. Cheap for structures already met (one walk over the keys, no allocation). True when
 * the structure was new.
 */
export function keepShape(value: object): boolean {
  if (kept.length >= MAX_SHAPES || keptChars >= MAX_CHARS || seen.size >= 4 * MAX_SHAPES) return false;
  valuesLeft = MAX_VALUES;
  const h = shapeHash(value, 0x811c9dc5, 0);
  if (h === NOT_KEPT || seen.has(h)) return false;
  seen.add(h);
  let text: string;
  try {
    text = skeletonText(value);
  } catch {
    return true; // nested too deeply to serialize (safeJson.ts): such a record is not worth keeping
  }
  if (keptChars + text.length > MAX_CHARS) return true;
  keptChars += text.length;
  kept.push(JSON.parse(text));
  return true;
}

/** Records in a row that brought no new structure before a read only samples. */
const QUIET = 64;
/** After that, one record in SAMPLE is looked at. */
const SAMPLE = 16;
let reads = 0;

/**
 * Which records of one read keepShape looks at: every one until QUIET in a row brought nothing new, then one in SAMPLE,
 * a different one each read (so repeated reads of a session still meet every structure). The walk costs ~5 % of
 * JSON.parse on every record; a re-read of a known session now pays a small part of that.
 */
export class ShapeSampler {
  private known = 0;
  private readonly slot = reads++ % SAMPLE;

  note(value: object, index: number): void {
    if (this.known >= QUIET && index % SAMPLE !== this.slot) return;
    if (keepShape(value)) this.known = 0;
    else this.known++;
  }
}

/** How many structures are kept, their text's size and the key names' (tests). */
export function keptShapes(): { readonly shapes: number; readonly chars: number; readonly keyChars: number } {
  let keyChars = 0;
  for (const k of keyIds.keys()) keyChars += k.length;
  return { shapes: kept.length, chars: keptChars, keyChars };
}

/** Whether any kept skeleton or key name holds `text` (tests: no user text is kept). */
export function keptTextIncludes(text: string): boolean {
  for (const k of keyIds.keys()) if (k.includes(text)) return true;
  return kept.some((x) => JSON.stringify(x).includes(text));
}

const instances: object[] = [];

/**
 * Keeps `template` (an empty instance of a class on the read path, made once at load) for the whole process: a class
 * instance's hidden class is reached from its constructor only through weak transitions, so it too dies when the last
 * instance does, with the optimized code that had it built in. At most a few dozen, each empty.
 */
export function keepInstance(template: object): void {
  if (instances.length < 64) instances.push(template);
}
