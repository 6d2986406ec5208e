/** Escapes one reference token of a JSON Pointer (RFC 6901 §3: `~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Joins reference tokens into a JSON Pointer (`[]` → `""`). */
export function toPointer(tokens: readonly (string | number)[]): string {
  let out = '';
  for (const t of tokens) out += '/' + escapePointerToken(String(t));
  return out;
}
