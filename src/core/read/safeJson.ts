// JSON.stringify that survives hostile nesting: JSON.parse takes 100,000-deep arrays, JSON.stringify overflows the stack.

/** Nesting kept when a value is too deep to serialize; deeper parts become TOO_DEEP. */
export const MAX_DEPTH = 1000;
export const TOO_DEEP = `[nested deeper than ${MAX_DEPTH} levels: left out]`;

type Frame = { readonly src: unknown; readonly dst: unknown[] | Record<string, unknown>; readonly depth: number };

/** A copy of `value` with every array or object below MAX_DEPTH replaced by TOO_DEEP; iterative, so any depth is fine. */
export function pruneDeep(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const shell = (v: object): unknown[] | Record<string, unknown> => (Array.isArray(v) ? [] : {});
  const root = shell(value);
  const stack: Frame[] = [{ src: value, dst: root, depth: 1 }];
  while (stack.length > 0) {
    const { src, dst, depth } = stack.pop()!;
    for (const [k, v] of Object.entries(src as object)) {
      let out: unknown = v;
      if (typeof v === 'object' && v !== null) {
        if (depth >= MAX_DEPTH) out = TOO_DEEP;
        else { out = shell(v); stack.push({ src: v, dst: out as Frame['dst'], depth: depth + 1 }); }
      }
      // defineProperty, not assignment: a "__proto__" key stays a key instead of replacing the prototype.
      if (Array.isArray(dst)) dst.push(out);
      else Object.defineProperty(dst, k, { value: out, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

/** JSON text of `value`; when it is nested too deeply to serialize, of its pruned copy, and `onPruned` is told. */
export function stringifySafe(value: unknown, onPruned?: () => void): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    onPruned?.();
    return JSON.stringify(pruneDeep(value));
  }
}
