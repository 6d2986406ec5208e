// One instance of the canonicalizing pass in WebAssembly (wasm/canonical-pass.ts, compiled into
// ./wasm/canonical-pass-module.ts) with the memory it reads and writes: the bytes of one text
// loaded at its start, then the output, scratch, member stack and tables the module lays out
// there. It reads events one call each and hashes each event's canonical form into the chain
// (docs/spec.md §3) as EventCanonicalizer does; its result is a CanonicalizerResult with the
// same tables. Used for a record read whole (wasm-canonicalizer.ts) and for a stream's batches
// (stream/batch-reader.ts), which load text after text into one instance while it fits.
//
// Where WebAssembly cannot be compiled here (no WebAssembly, a content security policy without
// 'wasm-unsafe-eval', a browser's main thread, which compiles only small modules at once),
// create() gives null and the caller runs the JavaScript pass.
import { sha256Hex } from '@runback/canonical';
import type { CanonicalizerResult } from './event-canonicalizer.js';
import { textsOf } from './member-texts.js';
import { CANONICAL_PASS_WASM } from './wasm/canonical-pass-module.js';

interface PassExports {
  setup(
    n: number,
    out: number,
    outLimit: number,
    scratch: number,
    stack: number,
    stackSlots: number,
    events: number,
    eventSlots: number,
    members: number,
    memberSlots: number,
    texts: number,
    textSlots: number,
    result: number,
    pending: number,
    deferred: number,
    deferredSlots: number,
    startDelta: number,
  ): void;
  readEvent(at: number): number;
  nextEvent(p: number): number;
  finish(): number;
  stackSlotBytes(): number;
}

/** Bytes left before each event's output for h_{k-1} (as in event-writer.ts). */
const HEAD = 64;
const PAGE = 65536;
/** Member stack slots (of the module's stackSlotBytes() each): members open at once in one event. */
const STACK_SLOTS = 1 << 16;
/** The member stack's slot size in bytes is at most this (checked against the module's). */
const MAX_SLOT_BYTES = 32;
/** Numbers of one event the module leaves to Number::toString (8 bytes each: start, end). */
const DEFERRED_SLOTS = 1 << 14;

const encoder = new TextEncoder();

/** The property by which an instance's memory names the instance (see WasmPass.buffer). */
const OWNER: unique symbol = Symbol('runback canonical pass');

interface OwnedBuffer extends ArrayBuffer {
  readonly [OWNER]?: WasmPass;
}

/** The part of the WebAssembly API used here (a global of every engine that has one). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
}

// The compiled module: undefined until first asked for, null where it cannot be compiled. A
// compiled module is immutable and holds no state of any verification.
let compiled: object | null | undefined;

function passModule(api: WebAssemblyApi): object | null {
  if (compiled === undefined) {
    compiled = null;
    try {
      const binary = atob(CANONICAL_PASS_WASM);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      compiled = new api.Module(bytes);
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

const align = (at: number): number => (at + 7) & ~7;

/** Where each region of the memory starts, for a text of n bytes. */
class Layout {
  readonly eventSlots: number;
  readonly memberSlots: number;
  readonly textSlots: number;
  readonly out: number;
  readonly outLimit: number;
  readonly scratch: number;
  readonly stack: number;
  readonly events: number;
  readonly members: number;
  readonly texts: number;
  readonly result: number;
  readonly pending: number;
  readonly deferred: number;
  readonly size: number;

  constructor(n: number) {
    // The input, the output (never longer than the input, plus one head), a scratch area for
    // reordering members, the member stack, then the tables, column by column. The input is
    // followed by 16 bytes or more the module may read past a token it copies, the output by
    // 32 or more it may write past a token or member it copies (canonical-pass.ts copy and
    // object), and the scratch area by 64 it may read past a member; it never writes the
    // input's region.
    this.eventSlots = Math.ceil(n / 32) + 64;
    this.memberSlots = Math.ceil(n / 8) + 64;
    this.textSlots = this.eventSlots * 4 + 4;
    this.out = align(n + 16);
    this.outLimit = this.out + n + 2 * HEAD;
    this.scratch = align(this.outLimit + 32);
    this.stack = align(this.scratch + n + 64);
    this.events = this.stack + STACK_SLOTS * MAX_SLOT_BYTES;
    this.members = this.events + (5 * this.eventSlots + 1) * 4;
    this.texts = this.members + 5 * this.memberSlots * 4;
    this.result = this.texts + 2 * this.textSlots * 4;
    this.pending = this.result + 32;
    this.deferred = this.pending + 64;
    this.size = this.deferred + DEFERRED_SLOTS * 8;
  }
}

export class WasmPass {
  /** The longest text, in bytes, this instance can load. */
  readonly capacity: number;
  readonly #memory: { readonly buffer: ArrayBuffer };
  readonly #pass: PassExports;
  readonly #bytes: Uint8Array;
  readonly #res: Int32Array;
  readonly #spans: Int32Array;
  readonly #layout: Layout;
  #text = '';
  #n = 0;
  #startDelta = 0;
  #hashes: string[] = [];
  #hashAsStored: Uint8Array;
  #head = '';
  // Where the input holds h_{k-1}'s digits (the last event's _hash value), -1: it does not.
  #headAt = -1;

  private constructor(
    memory: { readonly buffer: ArrayBuffer },
    pass: PassExports,
    capacity: number,
  ) {
    this.capacity = capacity;
    this.#memory = memory;
    this.#pass = pass;
    this.#bytes = new Uint8Array(memory.buffer);
    this.#layout = new Layout(capacity);
    this.#res = new Int32Array(memory.buffer, this.#layout.result, 6);
    this.#spans = new Int32Array(memory.buffer, this.#layout.deferred, DEFERRED_SLOTS * 2);
    this.#hashAsStored = new Uint8Array(this.#layout.eventSlots);
  }

  /**
   * An instance for texts of up to `capacity` bytes, or null where WebAssembly is not
   * available or its memory cannot be had.
   */
  static create(capacity: number): WasmPass | null {
    const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
    if (api === undefined) return null;
    const compiledModule = passModule(api);
    if (compiledModule === null) return null;
    try {
      const memory = new api.Memory({ initial: Math.ceil(new Layout(capacity).size / PAGE) });
      const instance = new api.Instance(compiledModule, {
        env: {
          memory,
          abort: () => {
            throw new Error('canonical pass: abort');
          },
        },
      });
      const pass = instance.exports as PassExports;
      if (pass.stackSlotBytes() > MAX_SLOT_BYTES) return null;
      return new WasmPass(memory, pass, capacity);
    } catch {
      return null;
    }
  }

  /**
   * Loads `input` (at most `capacity` bytes), the UTF-8 bytes `text` was strictly decoded
   * from, to be read from its byte `first` on; `startDelta` is the bytes before `first` less
   * the UTF-16 code units `text` has before the same place (0 for ASCII text).
   */
  load(input: Uint8Array, text: string, startDelta: number): void {
    if (input.length > this.capacity)
      throw new RangeError(`expected at most ${this.capacity} bytes, got ${input.length}`);
    // The regions stay where the capacity puts them: past any text loaded. Bytes of this
    // instance's own buffer() are in place already.
    if (!this.#holds(input)) this.#bytes.set(input);
    this.#text = text;
    this.#n = input.length;
    this.#startDelta = startDelta;
  }

  /**
   * The first `capacity` bytes of this instance's memory, for a caller to read a text into
   * (load() then need not copy it). Its ArrayBuffer names this instance, so that whoever is
   * given any view of its start finds the instance by owner().
   */
  buffer(): Uint8Array {
    const memory = this.#memory.buffer;
    if ((memory as OwnedBuffer)[OWNER] === undefined)
      Object.defineProperty(memory, OWNER, { value: this });
    return new Uint8Array(memory, 0, this.capacity);
  }

  /** The instance whose buffer() `input` views from its start, else undefined. */
  static owner(input: Uint8Array): WasmPass | undefined {
    const owner = (input.buffer as OwnedBuffer)[OWNER];
    return owner instanceof WasmPass && owner.#holds(input) && input.length <= owner.capacity
      ? owner
      : undefined;
  }

  /** Whether `input` is the start of this instance's memory (the bytes load() reads). */
  #holds(input: Uint8Array): boolean {
    return input.buffer === this.#memory.buffer && input.byteOffset === 0;
  }

  /** Begins a run of events chained from `head` (h of the event before them; "" for none). */
  begin(head: string): void {
    const l = this.#layout;
    this.#pass.setup(
      this.#n,
      l.out,
      l.outLimit,
      l.scratch,
      l.stack,
      STACK_SLOTS,
      l.events,
      l.eventSlots,
      l.members,
      l.memberSlots,
      l.texts,
      l.textSlots,
      l.result,
      l.pending,
      l.deferred,
      DEFERRED_SLOTS,
      this.#startDelta,
    );
    this.#hashes = [];
    this.#head = head;
    this.#headAt = -1;
  }

  /**
   * Reads, canonicalizes and chains the event whose `{` is at byte `p`: the byte just after
   * it, or -1 when the module leaves it to the JavaScript pass (then this run of events is
   * over: begin() starts the next).
   */
  read(p: number): number {
    const pass = this.#pass;
    const res = this.#res;
    const bytes = this.#bytes;
    const text = this.#text;
    const end = pass.readEvent(p);
    if (end < 0 || !printedAsWritten(text, this.#spans, res[4] as number)) return -1;
    const outStart = res[0] as number;
    const outEnd = res[1] as number;
    let from = outStart;
    if (this.#headAt >= 0) {
      from = outStart - HEAD;
      bytes.copyWithin(from, this.#headAt, this.#headAt + HEAD);
    } else if (this.#head !== '') {
      from = outStart - HEAD;
      encoder.encodeInto(this.#head, bytes.subarray(from, outStart));
    }
    const hash = sha256Hex(new Uint8Array(this.#memory.buffer, from, outEnd - from));
    const k = this.#hashes.length;
    this.#hashes.push(hash);
    this.#head = hash;
    // The event's _hash, when it holds these digits, gives the next event its head bytes.
    const vs = res[2] as number;
    const digitsAt = (res[5] as number) + 1;
    this.#headAt =
      vs >= 0 && (res[3] as number) === vs + HEAD + 2 && writtenAt(bytes, digitsAt, hash)
        ? digitsAt
        : -1;
    this.#hashAsStored[k] = this.#headAt >= 0 ? 1 : 0;
    return end;
  }

  /** After an event ending at byte `p`: the next one's first byte, -2 at the array's `]`, -1 otherwise. */
  nextEvent(p: number): number {
    return this.#pass.nextEvent(p);
  }

  /**
   * The events read since begin(), all proven and chained. Its tables are this instance's
   * memory: they hold until the next begin() or load().
   */
  result(): CanonicalizerResult {
    const textCount = this.#pass.finish();
    const count = this.#hashes.length;
    const l = this.#layout;
    const buffer = this.#memory.buffer;
    const bytes = this.#bytes;
    const column = (table: number, slots: number, c: number, length = slots) =>
      new Int32Array(buffer, table + c * slots * 4, length);
    const textStarts = column(l.texts, l.textSlots, 0);
    const textEnds = column(l.texts, l.textSlots, 1);
    const proven = new Uint8Array(count).fill(1);
    // Members in the order EventCanonicalizer's result has them: one object layout for both, so
    // the code that reads a result (views, cassette texts) stays monomorphic.
    return {
      count,
      starts: column(l.events, l.eventSlots, 0),
      ends: column(l.events, l.eventSlots, 1),
      names: column(l.events, l.eventSlots, 2),
      depths: column(l.events, l.eventSlots, 3),
      proven,
      hashes: this.#hashes,
      hashAsStored: this.#hashAsStored,
      chained: count,
      firstMember: column(l.events, l.eventSlots, 4, l.eventSlots + 1),
      memberNameStart: column(l.members, l.memberSlots, 0),
      memberNameEnd: column(l.members, l.memberSlots, 1),
      memberValueStart: column(l.members, l.memberSlots, 2),
      memberValueEnd: column(l.members, l.memberSlots, 3),
      memberText: column(l.members, l.memberSlots, 4),
      texts: textsOf(bytes, textStarts, textEnds, textCount),
      textBytes: bytes,
      textStarts,
      textEnds,
      ascii: this.#n === this.#text.length ? new Uint8Array(buffer, 0, this.#n) : undefined,
    };
  }
}

/**
 * Whether `bytes` hold the characters of `digits` (ASCII) from `at` on: read from the bytes,
 * as comparing a slice of the text would make V8 compare a sliced string character by
 * character in its runtime (docs/benchmarks.md). A byte past ASCII is never a digit's.
 */
function writtenAt(bytes: Uint8Array, at: number, digits: string): boolean {
  for (let i = 0; i < digits.length; i++) if (bytes[at + i] !== digits.charCodeAt(i)) return false;
  return true;
}

/**
 * Whether each of the `count` numbers listed in `spans` (start, end) is written as
 * Number::toString prints it (docs/spec.md §2): then it is canonical as written; else the event
 * would need it reprinted, which the JavaScript pass does.
 */
function printedAsWritten(text: string, spans: Int32Array, count: number): boolean {
  for (let i = 0; i < count; i++) {
    const token = text.slice(spans[2 * i], spans[2 * i + 1]);
    if (String(Number(token)) !== token) return false;
  }
  return true;
}
