// Where JSON text holds raw control characters (U+0000 to U+001F), which RFC 8259 §7 allows
// between tokens only as whitespace (tab, line feed, carriage return) and never inside a
// string. The event reader proves an event free of them in two steps: one search tells whether
// the event holds any at all (compact text holds none: one search covers the whole record);
// only when it does (pretty-printed text, or an invalid string) are its strings looked into
// one by one. An ASCII text's bytes are read four at a time, any other text's code units by a
// regular expression (native, but slower than the words).

/** A control character, searched from lastIndex (test on a global expression allocates nothing). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f]/g;

/** Index of the first control character of `text` at or after `from`, or text.length. */
export function nextControl(text: string, from: number): number {
  CONTROL.lastIndex = from;
  return CONTROL.test(text) ? CONTROL.lastIndex - 1 : text.length;
}

/**
 * Bytes below 0x20 in a 32-bit word w set the top bit of their byte in (w - 0x20202020) & ~w
 * (borrows only carry past a byte that is below 0x20 itself, so the result is 0 exactly when
 * no byte is).
 */
const BELOW_SPACE = 0x20202020;
const TOP_BITS = 0x80808080 | 0;
/** Bit 0 of each byte of a word. */
const LOW_BITS = 0x01010101;
/** Words counted into byte lanes before they are added up (each lane stays below 128). */
const LANE_WORDS = 127;
/** Words tested together before looking at the result (small: pretty text holds many). */
const BLOCK = 32;

/**
 * Looks for control characters in stretches of one text, reading its bytes four at a time
 * when the text is ASCII (then its bytes are its code units, index for index).
 */
export class ControlFinder {
  readonly #text: string;
  readonly #bytes: Uint8Array | undefined;
  // The bytes' 32-bit words, aligned: byte i is in word (i + #shift) >> 2.
  readonly #words: Int32Array | undefined;
  readonly #shift: number;

  /** `ascii`, when given, holds the text's characters as bytes (it is all ASCII). */
  constructor(text: string, ascii: Uint8Array | undefined) {
    this.#text = text;
    if (ascii === undefined || ascii.length !== text.length) {
      this.#bytes = undefined;
      this.#words = undefined;
      this.#shift = 0;
      return;
    }
    const shift = ascii.byteOffset & 3;
    this.#bytes = ascii;
    this.#shift = shift;
    this.#words = new Int32Array(
      ascii.buffer,
      ascii.byteOffset - shift,
      (ascii.length + shift) >> 2,
    );
  }

  /** Index of the first control character at or after `from`, or the text's length. */
  next(from: number): number {
    const words = this.#words;
    if (words === undefined) return nextControl(this.#text, from);
    const bytes = this.#bytes as Uint8Array;
    const shift = this.#shift;
    const n = bytes.length;
    // Bytes before the first whole word, blocks of whole words, then the bytes after them.
    let w = (from + shift + 3) >> 2;
    const last = (n + shift) >> 2;
    const head = Math.min((w << 2) - shift, n);
    for (let i = from; i < head; i++) if ((bytes[i] as number) < 0x20) return i;
    while (w < last) {
      const end = Math.min(last, w + BLOCK);
      let found = 0;
      for (let v = w; v < end; v++) {
        const x = words[v] as number;
        found |= (x - BELOW_SPACE) & ~x;
      }
      if ((found & TOP_BITS) !== 0) {
        for (let i = (w << 2) - shift, to = (end << 2) - shift; i < to; i++)
          if ((bytes[i] as number) < 0x20) return i;
      }
      w = end;
    }
    for (let i = Math.max(from, (last << 2) - shift); i < n; i++)
      if ((bytes[i] as number) < 0x20) return i;
    return n;
  }

  /**
   * How many control characters text[s, e) holds. For an ASCII text, four bytes at a time: a
   * byte is 0x20 or more exactly when one of its bits 5, 6 and 7 is set, so moving those bits
   * to bit 0 of their byte marks the other bytes of a word, counted by byte lane (32-bit
   * integer operations throughout, which an addition that overflows would leave).
   */
  count(s: number, e: number): number {
    const words = this.#words;
    if (words === undefined) {
      const text = this.#text;
      let found = 0;
      for (let i = s; i < e; i++) if (text.charCodeAt(i) < 0x20) found++;
      return found;
    }
    const bytes = this.#bytes as Uint8Array;
    const shift = this.#shift;
    let w = (s + shift + 3) >> 2;
    const last = (e + shift) >> 2;
    let found = 0;
    if (w >= last) {
      for (let i = s; i < e; i++) if ((bytes[i] as number) < 0x20) found++;
      return found;
    }
    for (let i = s, head = (w << 2) - shift; i < head; i++)
      if ((bytes[i] as number) < 0x20) found++;
    while (w < last) {
      // Each byte lane of `lanes` gains at most 1 a word, and holds up to 127 (a 32-bit int).
      const end = Math.min(last, w + LANE_WORDS);
      let lanes = 0;
      found += (end - w) * 4;
      for (; w < end; w++) {
        const x = words[w] as number;
        lanes = (lanes + (((x >>> 5) | (x >>> 6) | (x >>> 7)) & LOW_BITS)) | 0;
      }
      found -= (lanes & 0xff) + ((lanes >>> 8) & 0xff) + ((lanes >>> 16) & 0xff) + (lanes >>> 24);
    }
    for (let i = (last << 2) - shift; i < e; i++) if ((bytes[i] as number) < 0x20) found++;
    return found;
  }

  /** Whether text[s, e) holds a control character. */
  has(s: number, e: number): boolean {
    const words = this.#words;
    if (words === undefined) {
      const text = this.#text;
      for (let i = s; i < e; i++) if (text.charCodeAt(i) < 0x20) return true;
      return false;
    }
    const bytes = this.#bytes as Uint8Array;
    const shift = this.#shift;
    // Bytes before the first whole word, the whole words, then the bytes after the last one.
    let w = (s + shift + 3) >> 2;
    const last = (e + shift) >> 2;
    if (w >= last) {
      for (let i = s; i < e; i++) if ((bytes[i] as number) < 0x20) return true;
      return false;
    }
    for (let i = s, head = (w << 2) - shift; i < head; i++)
      if ((bytes[i] as number) < 0x20) return true;
    for (; w < last; w++) {
      const x = words[w] as number;
      if (((x - BELOW_SPACE) & ~x & TOP_BITS) !== 0) return true;
    }
    for (let i = (last << 2) - shift; i < e; i++) if ((bytes[i] as number) < 0x20) return true;
    return false;
  }
}
