// A short, stable hash of a file's first bytes, for the usage cache's "same prefix" check (pure, no crypto).

/** FNV-1a over raw bytes; used for the "first 4 KB still the same" check. */
export function hashBytes(bytes: Uint8Array): string {
  let a = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) a = Math.imul(a ^ bytes[i], 0x01000193);
  return (a >>> 0).toString(16).padStart(8, '0') + bytes.length.toString(16);
}
