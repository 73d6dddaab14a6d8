// Maps blocks back to the records they came from, so writers can rebuild only what changed.
import type { Block, Message } from '../model/transcript';

/** Record index → its blocks in output order (blocks we created have record -1 and are skipped). */
export function blocksByRecord(messages: readonly Message[]): Map<number, Block[]> {
  const map = new Map<number, Block[]>();
  for (const m of messages) {
    for (const b of m.blocks) {
      if (b.ref.record < 0) continue;
      const list = map.get(b.ref.record);
      if (list) list.push(b); else map.set(b.ref.record, [b]);
    }
  }
  return map;
}

/** Records that lost a repeated tool call or result at read time (Message.cutRecords): rebuilt or left out, never copied. */
export function cutRecords(messages: readonly Message[]): ReadonlySet<number> {
  const cut = new Set<number>();
  for (const m of messages) for (const r of m.cutRecords ?? []) cut.add(r);
  return cut;
}

/** Record indexes in the order their first block appears in the messages. */
export function recordOrder(messages: readonly Message[]): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const m of messages) for (const r of m.records) if (!seen.has(r)) { seen.add(r); out.push(r); }
  return out;
}

export function sameBlocks(a: readonly Block[] | undefined, b: readonly Block[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x === b[i]);
}

/** A writable copy of a read-time envelope (RawRecord.envelope), its one nested object (`key`) copied too. */
export function copyEnvelope(env: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> {
  const o: Record<string, unknown> = { ...env };
  const inner = env[key];
  if (typeof inner === 'object' && inner !== null) o[key] = { ...(inner as Record<string, unknown>) };
  return o;
}

/** Ids and clock a writer needs; injected so core stays deterministic and free of Node APIs. */
export interface WriteContext {
  newId(): string;
  now(): Date;
}
