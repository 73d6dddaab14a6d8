// Where the CLI and the usage scan keep their caches: $XDG_CACHE_HOME/context-compactor, else ~/.cache/context-compactor.
import { join } from 'node:path';

/** `home` is asked only when HOME is unset (the CLI's loader avoids loading node:os otherwise). */
export function cacheFolder(env: NodeJS.ProcessEnv, home: () => string): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || home(), '.cache'), 'context-compactor');
}
