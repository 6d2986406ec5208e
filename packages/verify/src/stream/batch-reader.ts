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
import { WasmPass } from '../fast-path/wasm-pass.js';
import type { ProvenSpans } from '../json/index.js';
import type { EventBatch } from './event-batch.js';

/** The least text an instance of the pass in WebAssembly is made for, in bytes (a chunk and a carried event). */
const WASM_CAPACITY = 2 << 20;

export class BatchReader implements KnownMemberTexts {
  // The pass in WebAssembly: undefined until a text asks for it, null when not to be had (or
  // not wanted). It holds the text whose batches it reads (#wasmTextId).
  #wasm: WasmPass | null | undefined;
  #wasmTextId = -1;
  // The pass with the text of #wasmTextId loaded, or null when that text is not for it.
  #wasmText: WasmPass | null = null;
  // Whether the pass in WebAssembly is reading the batch being filled, and whether it left
  // one of its events (then it reads no more of them).
  #wasmReading = false;
  #wasmLeft = false;

  /** `wasm`: whether the pass in WebAssembly may read batches (tests read them both ways). */
  constructor(wasm = true) {
    if (!wasm) this.#wasm = null;
  }
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

  /**
   * The element of the batch beginning at `at`, read by the pass as the splitter walks the
   * text (the splitter then need not walk it): the index just after it when proven, else -1.
   * `head`: the chain's head when the batch's first element begins. Never throws.
   */
  eventEnd(batch: EventBatch, at: number, head: () => string): number {
    const wasm = this.#wasmFor(batch);
    if (wasm !== null) {
      try {
        if (!this.#wasmReading) {
          wasm.begin(head());
          this.#wasmReading = true;
          this.#wasmLeft = false;
        }
        if (this.#wasmLeft) return -1;
        const end = wasm.read(at);
        if (end < 0) this.#wasmLeft = true;
        return end;
      } catch {
        // Not read on from a state an unexpected error left: the batch is read in JavaScript.
        this.#wasmLeft = true;
        return -1;
      }
    }
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
    const wasmReading = this.#wasmReading;
    this.#wasmReading = false;
    try {
      const text = batch.text;
      let scan: CanonicalizerResult | undefined;
      // What eventEnd read serves only when it read every element of the batch, in order.
      const wasm = this.#wasmText;
      if (wasmReading && wasm !== null && this.#wasmTextId === batch.textId) {
        scan = wasm.result();
        if (!sameStarts(scan, batch)) scan = undefined;
      }
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

  /**
   * The pass in WebAssembly with the batch's text loaded, or null: the text is not ASCII, or
   * WebAssembly is not to be had. Never throws.
   */
  #wasmFor(batch: EventBatch): WasmPass | null {
    if (this.#wasmTextId === batch.textId) return this.#wasmText;
    this.#wasmTextId = batch.textId;
    this.#wasmReading = false;
    this.#wasmText = null;
    if (this.#wasm === null) return null;
    try {
      const bytes = batch.asciiBytes(this.#scratch);
      if (bytes === undefined) return null;
      let wasm: WasmPass | null | undefined = this.#wasm;
      if (wasm === undefined || wasm.capacity < bytes.length) {
        wasm = WasmPass.create(Math.max(WASM_CAPACITY, bytes.length + (bytes.length >> 1)));
        this.#wasm = wasm;
        if (wasm === null) return null;
      }
      wasm.load(bytes, batch.text, 0);
      this.#wasmText = wasm;
      return wasm;
    } catch {
      this.#wasm = null;
      return null;
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
