// The events the record splitter completed in one chunk: places in one text, the text of the
// event the chunk began inside (carried from the chunks before) followed by the chunk.
import { grown } from '../fast-path/grown.js';

const encoder = new TextEncoder();

export class EventBatch {
  #carry = '';
  #chunk = '';
  #chunkBytes: Uint8Array | undefined = undefined;
  #text: string | null = null;
  /** Which text the places index: a new number for each text, the same for its batches. */
  textId = 0;
  /** The index of the batch's first event in the events array. */
  first = 0;
  /** How many events the batch holds. */
  count = 0;
  /** Where event k of the batch starts in `text`, and where it ends (just after it). */
  starts = new Int32Array(256);
  ends = new Int32Array(256);

  /**
   * Empties the batch for the events of `carry` + `chunk`, the first of them at `first`.
   * `chunkBytes`, when given, holds the chunk's characters as bytes (it is all ASCII).
   */
  reset(carry: string, chunk: string, first: number, chunkBytes?: Uint8Array): void {
    this.#carry = carry;
    this.#chunk = chunk;
    this.#chunkBytes = chunkBytes;
    this.#text = null;
    this.textId++;
    this.first = first;
    this.count = 0;
  }

  /** Empties the batch for the events after it in the same text, the first of them at `first`. */
  clear(first: number): void {
    this.first = first;
    this.count = 0;
  }

  add(start: number, end: number): void {
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts, new Int32Array(this.count * 2));
      this.ends = grown(this.ends, new Int32Array(this.count * 2));
    }
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
  }

  /** The text the places index: the carried text, then the chunk. */
  get text(): string {
    return (this.#text ??= this.#carry === '' ? this.#chunk : this.#carry + this.#chunk);
  }

  /**
   * The text's characters as bytes, written into `into` (grown when short), when the text is
   * all ASCII and the chunk's bytes were given; else undefined.
   */
  asciiBytes(into: { buffer: Uint8Array }): Uint8Array | undefined {
    const chunkBytes = this.#chunkBytes;
    if (chunkBytes === undefined || chunkBytes.length !== this.#chunk.length) return undefined;
    const carry = this.#carry;
    // The chunk's own bytes, as they stand, are read only while this batch is.
    if (carry === '') return chunkBytes;
    const length = carry.length + chunkBytes.length;
    if (into.buffer.length < length) into.buffer = new Uint8Array(length + (length >> 2));
    const bytes = into.buffer.subarray(0, length);
    const { read, written } = encoder.encodeInto(carry, bytes);
    // Each character written as one byte, all of them: every one was ASCII.
    if (read !== carry.length || written !== carry.length) return undefined;
    bytes.set(chunkBytes, carry.length);
    return bytes;
  }

  /** The text of event k of the batch. */
  eventText(k: number): string {
    return this.text.slice(this.starts[k], this.ends[k]);
  }
}
