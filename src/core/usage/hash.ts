// Short, stable string hashes for dedupe keys and file-prefix checks (pure, no crypto dependency).

/** Two 32-bit FNV-1a variants over UTF-16 code units → 16 hex chars; collisions are negligible at our key counts. */
export function hashString(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** FNV-1a over raw bytes; used for the "first 4 KB still the same" check. */
export function hashBytes(bytes: Uint8Array): string {
  let a = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) a = Math.imul(a ^ bytes[i], 0x01000193);
  return (a >>> 0).toString(16).padStart(8, '0') + bytes.length.toString(16);
}
