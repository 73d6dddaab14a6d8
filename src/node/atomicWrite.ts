// Atomic file writes: stream into a temp file beside the target, fsync, then rename over it.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';

export async function writeFileAtomic(target: string, chunks: Iterable<string>, mode = 0o600): Promise<number> {
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', mode);
  let bytes = 0;
  try {
    for (const c of chunks) {
      const buf = Buffer.from(c, 'utf8');
      bytes += buf.length;
      await fh.write(buf);
    }
    await fh.sync();
  } catch (e) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
  await fh.close();
  await rename(tmp, target).catch(async (e: unknown) => { await rm(tmp, { force: true }); throw e; });
  return bytes;
}
