// Lowercase hex for the log's hashes, as every digest in a record is written (docs/spec.md §2).

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Bytes of lowercase hex that an earlier toHex wrote (the log's own rows). */
export function fromHex(text: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(text))
    throw new TypeError(`expected lowercase hex, got ${JSON.stringify(text.slice(0, 20))}`);
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
