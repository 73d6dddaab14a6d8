// Quadgram filters: per block of indexed text, a bit set of its 4-byte sequences (ASCII letters lower-cased, as the
// query's `i` flag folds them), so a query whose matches must hold some literal bytes skips the blocks that cannot.
//
// Why 4 bytes: measured on the bench corpus, a trigram filter let "permission" through in 5× the text that holds it
// (per, erm, mis, ion… are in most blocks of English), a quadgram filter of the same size in exactly that text.

/** The bytes of a key: a literal run shorter than this filters nothing. */
export const GRAM = 4;
/** Slots a key hashes to before a block's filter maps them onto its own size. */
const WIDE_LOG2 = 19;
/**
 * Filter bits per distinct key: about 1 in 5 bits set, so each key of a query passes a block without it ~22 % of the
 * time, and a 10-letter word's 7 keys almost never; the filters come to ~13 % of the text.
 */
const BITS_PER_KEY = 4;
const MIN_BYTES = 8;

const LOWER = new Uint8Array(256).map((_, c) => (c >= 65 && c <= 90 ? c + 32 : c));

/** The wide slot of a key: its 4 lower-cased bytes as one 32-bit number. */
const wideSlot = (t: number): number => Math.imul(t, 0x9e3779b1) >>> (32 - WIDE_LOG2);

/** A wide slot's bit in a filter of `bits` bits (multiply-shift: any size, not only powers of two). */
const bitOf = (slot: number, bits: number): number => Math.floor((slot * bits) / (1 << WIDE_LOG2));

/** Builds one block's filter at a time; the scratch set is reused from block to block. */
export class FilterBuilder {
  private readonly seen = new Uint8Array(1 << (WIDE_LOG2 - 3));
  private readonly slots = new Uint32Array(1 << WIDE_LOG2);
  private count = 0;

  /** Adds the keys of `bytes[from, to)` (a key never spans two calls). */
  add(bytes: Uint8Array, from: number, to: number): void {
    const { seen, slots } = this;
    let t = 0;
    for (let i = from; i < to; i++) {
      t = (t << 8) | LOWER[bytes[i]];
      if (i - from < GRAM - 1) continue;
      const s = wideSlot(t);
      const bit = 1 << (s & 7);
      if ((seen[s >>> 3] & bit) === 0) {
        seen[s >>> 3] |= bit;
        slots[this.count++] = s;
      }
    }
  }

  /** The filter of the keys added since the last call (its size follows their number), and a fresh start. */
  finish(): Uint8Array {
    const bytes = Math.max(MIN_BYTES, Math.ceil((this.count * BITS_PER_KEY) / 8));
    const filter = new Uint8Array(bytes);
    const bits = bytes * 8;
    for (let k = 0; k < this.count; k++) {
      const s = this.slots[k];
      this.seen[s >>> 3] = 0;
      const b = bitOf(s, bits);
      filter[b >>> 3] |= 1 << (b & 7);
    }
    this.count = 0;
    return filter;
  }
}

/** The wide slots of every key of the runs (lower-cased ASCII, as literals.ts gives them). */
export function runSlots(runs: readonly string[]): number[] {
  const out = new Set<number>();
  for (const run of runs) {
    let t = 0;
    for (let i = 0; i < run.length; i++) {
      t = (t << 8) | LOWER[run.charCodeAt(i) & 0xff];
      if (i >= GRAM - 1) out.add(wideSlot(t));
    }
  }
  return [...out];
}

/** Whether the filter at `filter[offset, offset + bytes)` may hold every slot (false: the block cannot match). */
export function mayHold(filter: Uint8Array, offset: number, bytes: number, slots: readonly number[]): boolean {
  const bits = bytes * 8;
  for (const s of slots) {
    const b = bitOf(s, bits);
    if ((filter[offset + (b >>> 3)] & (1 << (b & 7))) === 0) return false;
  }
  return true;
}
