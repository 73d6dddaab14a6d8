// Which transcripts an eval reads: the files and folders named, or every session the Sessions view finds.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { discoverTranscripts } from '../usage/discover';

export interface EvalFiles { readonly files: string[]; readonly warnings: string[] }

/**
 * A named file is read whatever its name (a bad one fails its own row); a folder is walked for `*.jsonl` and for
 * the document sessions any agent recognises in it.
 * No paths: the agents' own stores (~/.claude/projects, ~/.codex/sessions and their env overrides).
 */
export async function evalFiles(paths: readonly string[], env: NodeJS.ProcessEnv): Promise<EvalFiles> {
  const files = new Set<string>();
  const dirs: string[] = [];
  const warnings: string[] = [];
  for (const p of paths) {
    const full = resolve(p);
    try {
      if (statSync(full).isDirectory()) dirs.push(full);
      else files.add(full);
    } catch {
      warnings.push(`${p}: not found, skipped`);
    }
  }
  if (paths.length === 0 || dirs.length > 0) {
    const found = await discoverTranscripts({ env, includeDefaults: paths.length === 0, extraDirs: dirs, documentsByContent: true });
    for (const f of found.files) files.add(f);
    warnings.push(...found.warnings);
  }
  return { files: [...files].sort(), warnings };
}
