// Bench inputs: the committed real transcripts, decompressed to a cache, and a ~50 MB stitched one.
import { createWriteStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readTranscriptFile } from '../src/node/readTranscriptFile';
import { analyse, copyLines, lastUuidOf } from './stitch';

export const DATA_DIR = join(__dirname, 'data');
export const CACHE_DIR = join(tmpdir(), 'context-compactor-bench');
/** Bump when the stitcher's output changes, so cached files are rebuilt. */
const STITCH_VERSION = 1;

/** A cached file is fresh when the stamp beside it matches what it was built from. */
function fresh(out: string, stamp: string): boolean {
  return existsSync(out) && existsSync(`${out}.stamp`) && readFileSync(`${out}.stamp`, 'utf8') === stamp;
}

function stampOf(gz: string, extra = ''): string {
  const s = statSync(gz);
  return `${s.size}:${s.mtimeMs}${extra}`;
}

/** Decompresses bench/data/NAME.gz into the cache (once) and returns its path. */
export async function benchFile(name: 'claude-8mb.jsonl' | 'codex-4mb.jsonl'): Promise<string> {
  const gz = join(DATA_DIR, `${name}.gz`);
  const out = join(CACHE_DIR, name);
  const stamp = stampOf(gz);
  if (fresh(out, stamp)) return out;
  await mkdir(CACHE_DIR, { recursive: true });
  writeFileSync(`${out}.tmp`, gunzipSync(await readFile(gz)));
  await rename(`${out}.tmp`, out);
  writeFileSync(`${out}.stamp`, stamp);
  return out;
}

export interface StitchedFile { readonly path: string; readonly copies: number; readonly bytes: number }

/**
 * Builds (once) a Claude Code transcript of `copies` chained copies of the real 8 MB session:
 * 6 copies ≈ 50 MB. Validated on build: one live branch must run through every copy.
 */
export async function stitchedClaude(copies = 6): Promise<StitchedFile> {
  const src = await benchFile('claude-8mb.jsonl');
  const out = join(CACHE_DIR, `claude-stitched-x${copies}.jsonl`);
  const stamp = stampOf(join(DATA_DIR, 'claude-8mb.jsonl.gz'), `:v${STITCH_VERSION}:x${copies}`);
  if (fresh(out, stamp)) return { path: out, copies, bytes: statSync(out).size };
  const shape = analyse(await readFile(src, 'utf8'));
  const ws = createWriteStream(`${out}.tmp`);
  for (let k = 0; k < copies; k++) {
    for (const line of copyLines(shape, k, k > 0 ? lastUuidOf(shape, k - 1) : undefined)) {
      if (!ws.write(`${line}\n`)) await once(ws, 'drain');
    }
  }
  ws.end();
  await once(ws, 'finish');
  await validateStitched(`${out}.tmp`, src, copies);
  await rename(`${out}.tmp`, out);
  writeFileSync(`${out}.stamp`, stamp);
  return { path: out, copies, bytes: statSync(out).size };
}

/** The stitched file must read as one session whose live branch is `copies` times the original's. */
async function validateStitched(path: string, src: string, copies: number): Promise<void> {
  const one = (await readTranscriptFile(src)).session;
  const all = (await readTranscriptFile(path)).session;
  const problems: string[] = [];
  if (all.records.length !== one.records.length * copies) problems.push(`records ${all.records.length} ≠ ${copies}×${one.records.length}`);
  if (all.messages.length !== one.messages.length * copies) problems.push(`live messages ${all.messages.length} ≠ ${copies}×${one.messages.length}`);
  if (all.turns.length !== one.turns.length * copies) problems.push(`turns ${all.turns.length} ≠ ${copies}×${one.turns.length}`);
  if (all.warnings.length > 0) problems.push(`warnings: ${all.warnings.join('; ')}`);
  const firstLive = all.messages[0]?.records[0] ?? -1;
  if (firstLive !== one.messages[0]?.records[0]) problems.push('the live branch does not start in the first copy');
  if (problems.length > 0) throw new Error(`stitched transcript is not one live branch: ${problems.join(', ')}`);
}
