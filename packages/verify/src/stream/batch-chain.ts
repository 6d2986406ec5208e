// The chain hashes (docs/spec.md §3) of a batch of streamed events, each canonicalized (§2)
// straight from its text by the canonicalizing pass's reader and writer
// (fast-path/event-reader.ts, event-writer.ts), whatever its member order and whitespace,
// and hashed onto the stream's chain head. EventCanonicalizer chains from h_0 = "" only, so
// it serves a record read whole; a stream's batch starts wherever the chain has got to.
//
// As in verifyJson, the pass reads the text as valid JSON: an event is "proven" only when the
// pass shows that it repeats no member name and overflows no number, and what the pass found
// is used only once the strict reader has accepted the same text (verify-stream.ts). The chain
// goes on from the text up to the first event the pass declines; from there the batch's
// events are serialized from their parsed values.
import { sha256Hex } from '@runback/canonical';
import { Declined } from '../fast-path/declined.js';
import { EventReader } from '../fast-path/event-reader.js';
import { EventWriter, HEAD } from '../fast-path/event-writer.js';
import type { ProvenSpans } from '../json/index.js';
import type { EventBatch } from './event-batch.js';

/** What the pass found for a batch's first `chained` events (all of them proven). */
export class BatchChain {
  /** h_k of the batch's event k onto the head the batch started from. */
  readonly hashes: string[] = [];
  chained = 0;
  // Of each chained event: its length, the member names it writes and how deep it nests.
  #lengths = new Int32Array(256);
  #names = new Int32Array(256);
  #depths = new Int32Array(256);
  #reader: EventReader | undefined = undefined;
  #textId = -1;
  #writer: EventWriter | undefined = undefined;
  // One proven stretch, the whole of an event's text, refilled by spanOf.
  readonly #span: ProvenSpans = {
    count: 1,
    proven: Uint8Array.of(1),
    starts: Int32Array.of(0),
    ends: new Int32Array(1),
    names: new Int32Array(1),
    depths: new Int32Array(1),
  };

  /**
   * Reads and hashes the batch's events in order from `head`, up to the first one declined.
   * Never throws: should anything go wrong, fewer events are chained.
   */
  read(batch: EventBatch, head: string): void {
    this.chained = 0;
    if (this.#lengths.length < batch.count) this.#grow(batch.count);
    try {
      this.#read(batch, head);
    } catch {
      // Not proven: the chain step serializes the rest (a Declined already stopped #read);
      // the reader is not read on from a state an unexpected error left.
      this.#reader = undefined;
    }
  }

  /** Chained event k of the batch as the one proven stretch of its own text. */
  spanOf(k: number): ProvenSpans {
    const span = this.#span;
    span.ends[0] = this.#lengths[k] as number;
    span.names[0] = this.#names[k] as number;
    span.depths[0] = this.#depths[k] as number;
    return span;
  }

  #read(batch: EventBatch, first: string): void {
    const text = batch.text;
    // One reader for all the batches of one text: it keeps where the next backslash is (and
    // such), which a new one would look for from its first event up to the end of the text.
    // Texts are told apart by the batch's number for them, never by content: a reader's
    // positions hold only for the very text it read on.
    if (this.#reader === undefined || this.#textId !== batch.textId) {
      this.#reader = new EventReader(text);
      this.#writer = new EventWriter(this.#reader, undefined, 1 << 16);
      this.#textId = batch.textId;
    }
    const reader = this.#reader;
    const writer = this.#writer as EventWriter;
    const { starts, ends, count } = batch;
    let head = first;
    for (let k = 0; k < count; k++) {
      const at = starts[k] as number;
      if (text.charCodeAt(at) !== 0x7b /* { */) return;
      try {
        reader.read(at);
        if (reader.end !== ends[k]) return;
        const end = writer.writeEvent();
        // h_k = sha256_hex(h_{k-1} + canonical(event without _hash)): the head just before.
        let from = writer.base + HEAD;
        if (head !== '') {
          from = writer.base;
          writer.writeHead(head, -1);
        }
        head = sha256Hex(writer.out.subarray(from, end));
      } catch (err) {
        if (err instanceof Declined) return;
        throw err;
      }
      this.hashes[k] = head;
      this.#lengths[k] = reader.end - at;
      this.#names[k] = reader.names;
      this.#depths[k] = reader.deepest;
      this.chained = k + 1;
    }
  }

  #grow(count: number): void {
    let size = this.#lengths.length;
    while (size < count) size *= 2;
    this.#lengths = new Int32Array(size);
    this.#names = new Int32Array(size);
    this.#depths = new Int32Array(size);
  }
}
