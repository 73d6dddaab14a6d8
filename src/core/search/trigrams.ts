// Trigram filters: per block of indexed text, a bit set of its byte trigrams (ASCII letters lower-cased, as the
// query's `i` flag folds them), so a query whose matches must hold some literal bytes skips the blocks that cannot.

/** Slots a trigram hashes to before a block's filter maps them onto its own size (2^19: ≤ 1 collision in ~10 at 50k). */
const WIDE_LOG2 = 19;
/** Filter bits per distinct trigram: about 1 in 8 bits set, so each trigram of a query passes a wrong block ~12 % of the time. */
const BITS_PER_TRIGRAM = 8;
const MIN_BYTES = 8;

const LOWER = new Uint8Array(256).map((_, c) => (c >= 65 && c <= 90 ? c + 32 : c));

/** The wide slot of the (lower-cased) trigram a, b, c. */
const wideSlot = (t: number): number => Math.imul(t, 0x9e3779b1) >>> (32 - WIDE_LOG2);

/** A wide slot's bit in a filter of `bits` bits (multiply-shift: any size, not only powers of two). */
const bitOf = (slot: number, bits: number): number => Math.floor((slot * bits) / (1 << WIDE_LOG2));

/** Builds one block's filter at a time; the scratch set is reused from block to block. */
export class FilterBuilder {
  private readonly seen = new Uint8Array(1 << (WIDE_LOG2 - 3));
  private readonly slots = new Uint32Array(1 << WIDE_LOG2);
  private count = 0;

  /** Adds the trigrams of `bytes[from, to)` (a trigram never spans two calls). */
  add(bytes: Uint8Array, from: number, to: number): void {
    const { seen, slots } = this;
    let t = 0;
    for (let i = from; i < to; i++) {
      t = ((t << 8) | LOWER[bytes[i]]) & 0xffffff;
      if (i - from < 2) continue;
      const s = wideSlot(t);
      const bit = 1 << (s & 7);
      if ((seen[s >>> 3] & bit) === 0) {
        seen[s >>> 3] |= bit;
        slots[this.count++] = s;
      }
    }
  }

  /** The filter of the trigrams added since the last call (its size follows their number), and a fresh start. */
  finish(): Uint8Array {
    const bytes = Math.max(MIN_BYTES, Math.ceil((this.count * BITS_PER_TRIGRAM) / 8));
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

/** The wide slots of every trigram of the runs (lower-cased ASCII, as literals.ts gives them). */
export function runSlots(runs: readonly string[]): number[] {
  const out = new Set<number>();
  for (const run of runs) {
    let t = 0;
    for (let i = 0; i < run.length; i++) {
      t = ((t << 8) | LOWER[run.charCodeAt(i) & 0xff]) & 0xffffff;
      if (i >= 2) out.add(wideSlot(t));
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
