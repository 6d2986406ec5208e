// Random identifiers and tokens from the Web Crypto API (globalThis.crypto: Node 20 and
// browsers alike).

/** `count` random bytes. */
export function randomBytes(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  crypto.getRandomValues(bytes);
  return bytes;
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `prefix` and `hexDigits` random hex digits: `run_3f9a…`. */
export function randomId(prefix: string, hexDigits = 16): string {
  return `${prefix}${toHex(randomBytes(Math.ceil(hexDigits / 2))).slice(0, hexDigits)}`;
}
