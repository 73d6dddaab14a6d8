// Every transcript-like file under a folder (.jsonl and .json, sorted): the sessions digests and golden tests run over.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function sessionFiles(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) sessionFiles(p, out);
    else if (/\.jsonl?$/.test(f)) out.push(p);
  }
  return out;
}
