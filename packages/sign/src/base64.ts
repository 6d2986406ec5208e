// Base64 (RFC 4648 §4, standard alphabet, padded) without Buffer, so the package runs in
// browsers and other runtimes. atob/btoa would work but atob silently skips whitespace and
// accepts missing padding; PEM bodies are decoded strictly here (the PEM layer strips line
// breaks first), so one PEM text maps to exactly one byte string.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const DECODE: Int16Array = (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/** Encodes bytes as padded standard base64. */
export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v =
      ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out +=
      ALPHABET.charAt(v >>> 18) +
      ALPHABET.charAt((v >>> 12) & 63) +
      ALPHABET.charAt((v >>> 6) & 63) +
      ALPHABET.charAt(v & 63);
  }
  const rest = n - i;
  if (rest === 1) {
    const v = (bytes[i] as number) << 16;
    out += ALPHABET.charAt(v >>> 18) + ALPHABET.charAt((v >>> 12) & 63) + '==';
  } else if (rest === 2) {
    const v = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out +=
      ALPHABET.charAt(v >>> 18) +
      ALPHABET.charAt((v >>> 12) & 63) +
      ALPHABET.charAt((v >>> 6) & 63) +
      '=';
  }
  return out;
}

/**
 * Decodes padded standard base64, or returns null when `text` is not canonical base64: a
 * length that is not a multiple of 4, a character outside the alphabet (whitespace included),
 * misplaced padding, or non-zero padding bits (RFC 4648 §3.5 lets decoders reject those, and
 * rejecting them keeps the encoding of a key unique).
 */
export function base64Decode(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  let pad = 0;
  if (text.endsWith('==')) pad = 2;
  else if (text.endsWith('=')) pad = 1;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const sextets = [0, 0, 0, 0];
    for (let j = 0; j < 4; j++) {
      const code = text.charCodeAt(i + j);
      if (last && j >= 4 - pad) {
        if (code !== 61 /* = */) return null;
        continue;
      }
      const value = code < 128 ? (DECODE[code] as number) : -1;
      if (value < 0) return null;
      sextets[j] = value;
    }
    const v =
      ((sextets[0] as number) << 18) |
      ((sextets[1] as number) << 12) |
      ((sextets[2] as number) << 6) |
      (sextets[3] as number);
    if (last && pad === 2) {
      if ((v & 0xffff) !== 0) return null;
      out[o++] = v >>> 16;
    } else if (last && pad === 1) {
      if ((v & 0xff) !== 0) return null;
      out[o++] = v >>> 16;
      out[o++] = (v >>> 8) & 0xff;
    } else {
      out[o++] = v >>> 16;
      out[o++] = (v >>> 8) & 0xff;
      out[o++] = v & 0xff;
    }
  }
  return out;
}
