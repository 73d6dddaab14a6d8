// The Node floor for a cold `usage`: a process that only reads every session, finds the usage lines and parses them.
// Plain JS run by node itself (no tsx, no bundle), so its time is node start-up plus that work and nothing else: no
// dedupe, no prices, no report, no output beyond one number. Run: node bench/lib/usageFloor.mjs <projects-dir>
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

const MARKER = Buffer.from('"usage"');
const NL = 10;
let buf = Buffer.allocUnsafe(1 << 20); // one buffer reused for every file, as our scanner does
let output = 0;

function files(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...files(join(dir, e.name)));
    else if (e.name.endsWith('.jsonl')) out.push(join(dir, e.name));
  }
  return out;
}

/** Parses every whole line in buf[0, end) that holds the marker; returns where the unfinished last line starts. */
function scan(end) {
  const last = buf.lastIndexOf(NL, end - 1);
  if (last < 0) return 0;
  let at = buf.subarray(0, end).indexOf(MARKER);
  while (at >= 0 && at < last) {
    const start = buf.lastIndexOf(NL, at) + 1;
    const stop = buf.indexOf(NL, at);
    take(start, stop);
    at = buf.indexOf(MARKER, stop);
  }
  return last + 1;
}

/** Parses buf[start, stop) as one usage line; a line that is not JSON is skipped, as every reader skips it. */
function take(start, stop) {
  try {
    const usage = JSON.parse(buf.toString('utf8', start, stop)).message?.usage;
    if (usage) output += usage.output_tokens ?? 0;
  } catch { /* not JSON */ }
}

for (const file of files(process.argv[2])) {
  const fd = openSync(file, 'r');
  let kept = 0;
  for (;;) {
    if (kept === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]); // a line longer than the buffer
    const n = readSync(fd, buf, kept, buf.length - kept, null);
    if (n === 0) break;
    const end = kept + n;
    const done = scan(end);
    buf.copyWithin(0, done, end);
    kept = end - done;
  }
  closeSync(fd);
  // A last line without its '\n' counts too.
  if (kept > 0 && buf.subarray(0, kept).indexOf(MARKER) >= 0) take(0, kept);
}
process.stdout.write(`${output}\n`);
