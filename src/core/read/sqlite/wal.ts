// The write-ahead log beside a SQLite database (`<db>-wal`): which pages its committed frames hold, as SQLite's own
// recovery finds them (salts and running checksums valid, up to the last commit frame).
import type { FileBytes } from '../../agents/agent';
import { readUint } from './record';

export interface WalPages {
  /** Page number → byte offset of that page's newest committed copy in the WAL. */
  readonly pages: ReadonlyMap<number, number>;
  /** Database size in pages after the last commit (0: no commit in the WAL). */
  readonly dbPages: number;
}

const EMPTY: WalPages = { pages: new Map(), dbPages: 0 };

/** Running checksum over 8-byte words, in the byte order the WAL header names. */
function checksum(b: Uint8Array, from: number, to: number, s: [number, number], bigEndian: boolean): void {
  const view = new DataView(b.buffer, b.byteOffset);
  let [s0, s1] = s;
  for (let i = from; i < to; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  s[0] = s0;
  s[1] = s1;
}

/** The committed pages of a WAL, for a database of `pageSize`; an absent, empty or foreign WAL holds none. */
export function readWal(wal: FileBytes | undefined, pageSize: number): WalPages {
  if (!wal || wal.size < 32) return EMPTY;
  const head = wal.read(0, 32);
  const magic = readUint(head, 0, 4);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return EMPTY;
  if (readUint(head, 8, 4) !== pageSize) return EMPTY;
  const bigEndian = magic === 0x377f0683;
  const sum: [number, number] = [0, 0];
  checksum(head, 0, 24, sum, bigEndian);
  if (sum[0] !== readUint(head, 24, 4) || sum[1] !== readUint(head, 28, 4)) return EMPTY;
  const salt1 = readUint(head, 16, 4);
  const salt2 = readUint(head, 20, 4);
  const frameSize = 24 + pageSize;
  const committed = new Map<number, number>();
  const pending = new Map<number, number>();
  let dbPages = 0;
  // Frames are read in batches: a WAL is usually a few MB, one read per frame would be thousands of calls.
  const batchFrames = Math.max(1, Math.floor((4 << 20) / frameSize));
  for (let at = 32; at + frameSize <= wal.size;) {
    const count = Math.min(batchFrames, Math.floor((wal.size - at) / frameSize));
    const batch = wal.read(at, count * frameSize);
    for (let f = 0; f < count; f++, at += frameSize) {
      const o = f * frameSize;
      if (readUint(batch, o + 8, 4) !== salt1 || readUint(batch, o + 12, 4) !== salt2) return { pages: committed, dbPages };
      checksum(batch, o, o + 8, sum, bigEndian);
      checksum(batch, o + 24, o + frameSize, sum, bigEndian);
      if (sum[0] !== readUint(batch, o + 16, 4) || sum[1] !== readUint(batch, o + 20, 4)) return { pages: committed, dbPages };
      pending.set(readUint(batch, o, 4), at + 24);
      const commitSize = readUint(batch, o + 4, 4);
      if (commitSize > 0) {
        for (const [page, offset] of pending) committed.set(page, offset);
        pending.clear();
        dbPages = commitSize;
      }
    }
  }
  return { pages: committed, dbPages };
}
