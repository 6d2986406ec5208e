// Strict UTF-8 decoding (RFC 3629) of a stream's chunks, with one leading byte order mark
// dropped as decodeJsonInput drops it (docs/spec.md §6). Each chunk is decoded by one call of a
// decoder that is not streaming, holding back the one to three bytes of a character the
// chunk's end cuts for the next chunk: in Node a streaming TextDecoder call leaves the fast
// UTF-8 path, and decoding the bench record in 1 MiB chunks took 91-147 ms so against 58-63 ms
// one chunk a call. Nothing is
// accepted that the streaming decoder refuses: bytes held back are decoded with what follows
// them, or refused at the end.

/** Thrown for bytes that are not UTF-8; `offset`: the byte the refused piece starts at. */
export class InvalidUtf8Chunk extends Error {
  constructor(readonly offset: number) {
    super(`invalid UTF-8 at or after byte offset ${offset} (expected well-formed UTF-8 text)`);
    this.name = 'InvalidUtf8Chunk';
  }
}

/** A decoded piece: its text and the bytes it was decoded from. */
export interface Utf8Piece {
  readonly text: string;
  readonly bytes: Uint8Array;
}

const NOTHING = new Uint8Array(0);

export class Utf8Chunks {
  // Drops a leading byte order mark: for the stream's first bytes only.
  readonly #first = new TextDecoder('utf-8', { fatal: true });
  readonly #rest = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  #started = false;
  #held: Uint8Array = NOTHING;
  #offset = 0;

  /**
   * The text of `chunk`, after the bytes held back from the chunk before, up to its last
   * whole character. @throws {InvalidUtf8Chunk}
   */
  decode(chunk: Uint8Array): Utf8Piece {
    let all = chunk;
    if (this.#held.length > 0) {
      all = new Uint8Array(this.#held.length + chunk.length);
      all.set(this.#held);
      all.set(chunk, this.#held.length);
    }
    const cut = wholeCharacters(all);
    const bytes = all.subarray(0, cut);
    const text = this.#decode(bytes);
    // Copied: a source may refill the chunk's buffer before the next one comes.
    this.#held = cut === all.length ? NOTHING : all.slice(cut);
    return { text, bytes };
  }

  /** Ends the stream: bytes still held back are a cut character. @throws {InvalidUtf8Chunk} */
  end(): void {
    if (this.#held.length > 0) throw new InvalidUtf8Chunk(this.#offset);
  }

  #decode(bytes: Uint8Array): string {
    if (bytes.length === 0) return '';
    try {
      const text = (this.#started ? this.#rest : this.#first).decode(bytes);
      this.#started = true;
      this.#offset += bytes.length;
      return text;
    } catch {
      throw new InvalidUtf8Chunk(this.#offset);
    }
  }
}

/**
 * How many of the bytes end on a character boundary: all of them, unless they end inside a
 * multi-byte sequence whose lead byte asks for more than follow it. Bytes that cannot be UTF-8
 * are left in, for the decoder to refuse.
 */
export function wholeCharacters(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = n - 1;
  // Back over at most three continuation bytes (10xxxxxx) to the byte that leads them.
  while (i >= 0 && n - i <= 3 && ((bytes[i] as number) & 0xc0) === 0x80) i--;
  if (i < 0) return n;
  const lead = bytes[i] as number;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return n - i < length ? i : n;
}
