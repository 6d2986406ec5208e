// The batches of a stream's ASCII texts, read by the canonicalizing pass in WebAssembly
// (fast-path/wasm-pass.ts) as the splitter comes to their events: one instance, loaded with
// text after text (a new, larger one for a text past its capacity). BatchReader reads in
// JavaScript the batches this does not read whole, and every batch of other text.
import type { CanonicalizerResult } from '../fast-path/event-canonicalizer.js';
import { WasmPass } from '../fast-path/wasm-pass.js';
import type { EventBatch } from './event-batch.js';

/** The least text an instance is made for, in bytes: a 1 MiB chunk and a carried event. */
const CAPACITY = 2 << 20;

export class WasmBatches {
  // Undefined until a text asks for it; null where WebAssembly is not to be had (or not wanted).
  #pass: WasmPass | null | undefined;
  // The text last asked for, and whether #pass holds it.
  #textId = -1;
  #loaded = false;
  // Whether the batch being filled is being read, and whether the module left one of its
  // events (then it reads no more of them: the batch is JavaScript's).
  #reading = false;
  #left = false;

  /** `enabled`: whether the module may read batches at all (tests read them both ways). */
  constructor(enabled: boolean) {
    if (!enabled) this.#pass = null;
  }

  /**
   * The batch's element at `at`, read by the module: the index just after it, or -1 when the
   * module leaves it; undefined when the batch's text is not the module's (past ASCII, or no
   * WebAssembly), and then the caller reads it. `head`: the chain's head when the batch's
   * first element begins; `scratch`: the buffer EventBatch.asciiBytes writes into. Never throws.
   */
  eventEnd(
    batch: EventBatch,
    at: number,
    head: () => string,
    scratch: { buffer: Uint8Array },
  ): number | undefined {
    if (!this.#load(batch, scratch)) return undefined;
    const pass = this.#pass as WasmPass;
    try {
      if (!this.#reading) {
        pass.begin(head());
        this.#reading = true;
        this.#left = false;
      }
      if (this.#left) return -1;
      const end = pass.read(at);
      if (end < 0) this.#left = true;
      return end;
    } catch {
      // Not read on from a state an unexpected error left: the batch is JavaScript's.
      this.#left = true;
      return -1;
    }
  }

  /**
   * Ends the batch's reading: what eventEnd read of it (the events before any it left), or
   * undefined when it read none. Holds until the next batch begins.
   */
  take(batch: EventBatch): CanonicalizerResult | undefined {
    const reading = this.#reading;
    this.#reading = false;
    if (!reading || !this.#loaded || this.#textId !== batch.textId) return undefined;
    return (this.#pass as WasmPass).result();
  }

  /** Whether #pass holds the batch's text, loading it when it is new and ASCII. */
  #load(batch: EventBatch, scratch: { buffer: Uint8Array }): boolean {
    if (this.#textId === batch.textId) return this.#loaded;
    this.#textId = batch.textId;
    this.#reading = false;
    this.#loaded = false;
    if (this.#pass === null) return false;
    try {
      const bytes = batch.asciiBytes(scratch);
      if (bytes === undefined) return false;
      let pass: WasmPass | null | undefined = this.#pass;
      if (pass === undefined || pass.capacity < bytes.length) {
        pass = WasmPass.create(Math.max(CAPACITY, bytes.length + (bytes.length >> 1)));
        this.#pass = pass;
        if (pass === null) return false;
      }
      pass.load(bytes, batch.text, 0);
      this.#loaded = true;
      return true;
    } catch {
      this.#pass = null;
      return false;
    }
  }
}
