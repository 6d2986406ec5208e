// A batch of streamed events (event-batch.ts) read the way verifyJson reads a whole record's
// events: canonicalized and chained straight from their text by the canonicalizing pass
// (fast-path/event-canonicalizer.ts), whatever their member order and whitespace, from the
// chain head the stream has reached (docs/spec.md §3), and each proven event handed to the
// steps as a view (fast-path/event-views.ts) with the canonical texts of the members the
// cassette reads (§4.3), so that neither JSON.parse nor a serializer goes over it again.
//
// Where the batch's text is ASCII and WebAssembly is to be had, the pass in WebAssembly
// (fast-path/wasm-pass.ts) reads the events as the splitter comes to them; a batch it does not
// read whole (it left an event to JavaScript) is read again by the pass in JavaScript, as is
// any batch of other text. Both give the same result (fast-path/wasm-canonicalizer.property.test.ts).
//
// As in verifyJson, an event is proven only when the pass showed that it is JSON (structure
// and every token), repeats no member name and overflows no number (docs/spec.md §6); the text
// around the events is the stream splitter's to read. Events the pass declines are parsed by
// the strict reader (verify-stream.ts), and the chain from the first of them on is the chain
// step's.
import type { KnownMemberTexts } from '@runback/replay-digest';
import { CanonicalizedEvents } from '../fast-path/canonicalized-events.js';
import { EventCanonicalizer, type CanonicalizerResult } from '../fast-path/event-canonicalizer.js';
import { canBeView, ViewReader } from '../fast-path/event-views.js';
import type { ProvenSpans } from '../json/index.js';
import type { EventBatch } from './event-batch.js';
import { WasmBatches } from './wasm-batches.js';

export class BatchReader implements KnownMemberTexts {
  // The batches the pass in WebAssembly reads.
  readonly #wasm: WasmBatches;
  // One canonicalizer for all the batches of one text: its reader keeps where the next
  // backslash is, which a new one would look for from its first event to the end of the
  // text. Texts are told apart by the batch's number for them, never by content.
  #canonicalizer: EventCanonicalizer | undefined = undefined;
  #textId = -1;
  #scan: CanonicalizerResult | undefined = undefined;
  #views: ViewReader | undefined = undefined;
  #texts: CanonicalizedEvents | undefined = undefined;
  #first = 0;
  // Whether eventEnd has begun reading the batch being filled.
  #reading = false;
  // The bytes of the text read now, when it is ASCII: the pass then copies and compares spans
  // of bytes several at a time, as for a record read whole. One buffer serves text after text.
  readonly #scratch = { buffer: new Uint8Array(0) };
  // One proven stretch, the whole of an event's text, refilled by spanOf.
  readonly #span: ProvenSpans = {
    count: 1,
    proven: Uint8Array.of(1),
    starts: Int32Array.of(0),
    ends: new Int32Array(1),
    names: new Int32Array(1),
    depths: new Int32Array(1),
  };

  /** `wasm`: whether the pass in WebAssembly may read batches (tests read them both ways). */
  constructor(wasm = true) {
    this.#wasm = new WasmBatches(wasm);
  }

  /**
   * The element of the batch beginning at `at`, read by the pass as the splitter walks the
   * text (the splitter then need not walk it): the index just after it when proven, else -1.
   * `head`: the chain's head when the batch's first element begins. Never throws.
   */
  eventEnd(batch: EventBatch, at: number, head: () => string): number {
    const read = this.#wasm.eventEnd(batch, at, head, this.#scratch);
    if (read !== undefined) return read;
    try {
      const canonicalizer = this.#canonicalizerFor(batch);
      if (!this.#reading) {
        canonicalizer.beginEvents(head());
        this.#reading = true;
      }
      return canonicalizer.readNext(at);
    } catch {
      this.#canonicalizer = undefined;
      return -1;
    }
  }

  /**
   * Reads the batch's events, chaining them from `head` up to the first one declined: takes
   * what eventEnd read of them, or reads them now. Never throws: should anything go wrong,
   * the batch's events are all parsed (nothing proven).
   */
  read(batch: EventBatch, head: string): void {
    this.#scan = undefined;
    this.#views = undefined;
    this.#texts = undefined;
    this.#first = batch.first;
    const reading = this.#reading;
    this.#reading = false;
    try {
      const text = batch.text;
      // What eventEnd read serves only when it read every element of the batch, in order.
      let scan = this.#wasm.take(batch);
      if (scan !== undefined && !sameStarts(scan, batch)) scan = undefined;
      if (scan === undefined) {
        const canonicalizer = this.#canonicalizerFor(batch);
        scan = reading ? canonicalizer.endEvents() : undefined;
        if (scan === undefined || !sameStarts(scan, batch))
          scan = canonicalizer.scanEvents(batch.starts, batch.ends, batch.count, head);
      }
      const views = new ViewReader(text, scan, scan.count);
      const texts = new CanonicalizedEvents(text, scan);
      texts.useCassetteMembers(views.cassetteMembers);
      this.#scan = scan;
      this.#views = views;
      this.#texts = texts;
    } catch {
      // The canonicalizer is not read on from a state an unexpected error left.
      this.#canonicalizer = undefined;
    }
  }

  #canonicalizerFor(batch: EventBatch): EventCanonicalizer {
    if (this.#canonicalizer === undefined || this.#textId !== batch.textId) {
      this.#canonicalizer = new EventCanonicalizer(batch.text, batch.asciiBytes(this.#scratch));
      this.#textId = batch.textId;
      this.#reading = false;
    }
    return this.#canonicalizer;
  }

  /** The view of event k of the batch, or undefined when the strict reader is to parse it. */
  view(k: number): unknown {
    const scan = this.#scan;
    if (scan === undefined || !canBeView(scan, k)) return undefined;
    return (this.#views as ViewReader).view(k);
  }

  /** h of event k onto the head the batch started from, when the pass chained it. */
  hash(k: number): string | undefined {
    const scan = this.#scan;
    return scan !== undefined && k < scan.chained ? scan.hashes[k] : undefined;
  }

  /** canonical(event k without _hash), when proven (for an event the pass did not chain). */
  eventText(k: number): string | undefined {
    return this.#texts?.eventText(k);
  }

  /** Proven event k as the one proven stretch of its own text, else undefined. */
  spanOf(k: number): ProvenSpans | undefined {
    const scan = this.#scan;
    if (scan === undefined || scan.proven[k] !== 1) return undefined;
    const span = this.#span;
    span.ends[0] = (scan.ends[k] as number) - (scan.starts[k] as number);
    span.names[0] = scan.names[k] as number;
    span.depths[0] = scan.depths[k] as number;
    return span;
  }

  /** canonical(events[index][member]) for an event of this batch (by its index in the record). */
  memberText(index: number, member: string): string | undefined {
    const texts = this.#texts;
    const k = index - this.#first;
    if (texts === undefined || k < 0 || k >= (this.#scan as CanonicalizerResult).count)
      return undefined;
    return texts.memberText(k, member);
  }
}

/** Whether the scan's events begin where the batch's do, one for one (it may hold one more). */
function sameStarts(scan: CanonicalizerResult, batch: EventBatch): boolean {
  if (scan.count < batch.count) return false;
  for (let k = 0; k < batch.count; k++) {
    if (scan.starts[k] !== batch.starts[k]) return false;
    // A proven event ends where the splitter took it to end.
    if (scan.proven[k] === 1 && scan.ends[k] !== batch.ends[k]) return false;
  }
  return true;
}
