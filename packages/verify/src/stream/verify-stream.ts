// verifyStream: a record read from a stream of bytes, one chunk's events at a time, so memory
// stays bounded by the largest chunk or event (plus 8 bytes of seq per event and a bounded
// reorder buffer for the cassette) rather than the record. Each chunk's events are
// canonicalized and chained straight from their text and read as views, as verifyJson reads a
// whole record's (batch-reader.ts); those the pass declines are read by the strict reader.
// Same reading rules (docs/spec.md §6) and the same result as verifyJson on the same bytes;
// only the wording of a syntax error's position differs.
import { parseJsonStrict, parseJsonStrictSpans, type ProvenSpans } from '../json/index.js';
import { DEFAULT_MAX_DEPTH, type JsonReadError } from '../json/types.js';
import type { VerifyResult } from '../result.js';
import { assertTrustPolicy } from '../signature/trust.js';
import { partsOf, type JsonObject } from '../steps/context.js';
import { EventSteps } from '../steps/event-steps.js';
import {
  eventStepsResult,
  failure,
  verifyJsonWith,
  verifyWithPolicy,
  type VerifyOptions,
} from '../verify.js';
import { BatchReader } from './batch-reader.js';
import type { EventBatch } from './event-batch.js';
import { RecordSplitter, type SplitSink } from './record-splitter.js';
import { REORDER_BUDGET, StreamCassette } from './stream-cassette.js';
import { InvalidUtf8Chunk, Utf8Chunks, type Utf8Piece } from './utf8-chunks.js';

/** Bytes as a stream: a Node Readable, any async iterable of chunks, or a web ReadableStream. */
export type ByteSource = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/** The trust policy, and how far out of seq order a streamed record's events may be. */
export interface VerifyStreamOptions extends VerifyOptions {
  /**
   * Characters of oracle-entry text held to put entries that arrive out of seq order back in
   * order (default 16 MiB; `Infinity` holds as many as it takes). Writers append events as
   * calls complete, so concurrent calls arrive slightly out of order; an entry that arrives
   * after later ones were already hashed fails the cassette check with CASSETTE_OUT_OF_ORDER.
   */
  readonly reorderBudget?: number | undefined;
  /**
   * Streams of at most this many bytes (default 64 MiB) are collected and verified as
   * verifyJson verifies bytes (a syntax error is then worded as verifyJson words it); reading
   * event by event took about as long (0.96x) on the bench record, in less than half the
   * memory. A longer stream is read event by event from the start (the bytes held so far
   * first), so memory stays bounded by this plus one event. 0 reads every stream event by
   * event; the reorder budget applies only then.
   */
  readonly wholeBytes?: number | undefined;
}

/** The default of VerifyStreamOptions.wholeBytes: 64 MiB, as `runback verify` reads whole. */
const WHOLE_BYTES = 64 * 1024 * 1024;
/** Held bytes are handed to the event-by-event reader in pieces of this size. */
const PIECE = 1 << 20;

/**
 * Verifies a record read from a stream of bytes (strict UTF-8; duplicate members, nesting over
 * 512 and out-of-range numbers rejected), holding one event at a time. Resolves to the same
 * result as verifyJson on the same bytes; it rejects only for malformed options (as verify
 * throws) and never for anything in the stream.
 */
export async function verifyStream(
  source: ByteSource,
  options: VerifyStreamOptions = {},
): Promise<VerifyResult> {
  return verifyStreamWith(source, options, 'canonical');
}

/**
 * verifyStream with its canonicalizing pass chosen (internal seam, as verifyJsonWith: the
 * tests read every stream both ways): 'canonical' lets the pass in WebAssembly read what it
 * can, 'canonical-js' reads everything in JavaScript.
 */
export async function verifyStreamWith(
  source: ByteSource,
  options: VerifyStreamOptions,
  reading: 'canonical' | 'canonical-js',
): Promise<VerifyResult> {
  assertTrustPolicy(options);
  const budget = options.reorderBudget ?? REORDER_BUDGET;
  if (typeof budget !== 'number' || Number.isNaN(budget) || budget < 0) {
    throw new TypeError(
      `expected options.reorderBudget to be a number >= 0, got ${String(options.reorderBudget)}`,
    );
  }
  const whole = options.wholeBytes ?? WHOLE_BYTES;
  if (typeof whole !== 'number' || Number.isNaN(whole) || whole < 0) {
    throw new TypeError(
      `expected options.wholeBytes to be a number >= 0, got ${String(options.wholeBytes)}`,
    );
  }
  const reader = new StreamReader(options, budget, reading === 'canonical');
  const decoder = new Utf8Chunks();
  /** Decodes and reads one chunk event by event; a result when the reading is over. */
  const feed = (chunk: Uint8Array): VerifyResult | undefined => {
    let piece: Utf8Piece;
    try {
      piece = decoder.decode(chunk);
    } catch (err) {
      return invalidUtf8(err);
    }
    // As many characters as bytes: every byte was ASCII (UTF-8 writes any other character in
    // more bytes than UTF-16 code units).
    reader.feed(piece.text, piece.text.length === piece.bytes.length ? piece.bytes : undefined);
    return undefined;
  };
  // The stream's first bytes, copied (a source may refill one buffer between chunks), while
  // they fit in `whole`; null once the stream is read event by event.
  let held: HeldBytes | null = whole > 0 ? new HeldBytes(whole) : null;
  try {
    for await (const chunk of chunksOf(source)) {
      if (!(chunk instanceof Uint8Array))
        return failure({
          check: 'schema',
          code: 'JSON_SYNTAX',
          message: `expected the stream to yield Uint8Array chunks, got ${typeof chunk}`,
        });
      if (held !== null) {
        if (held.add(chunk)) continue;
        const first = held.bytes();
        held = null;
        for (let at = 0; at < first.length; at += PIECE) {
          const done = feed(first.subarray(at, at + PIECE));
          if (done !== undefined) return done;
        }
      }
      const done = feed(chunk);
      if (done !== undefined) return done;
    }
    if (held !== null) return verifyJsonWith(held.bytes(), options, reading);
    try {
      decoder.end();
    } catch (err) {
      return invalidUtf8(err);
    }
    return reader.finish();
  } catch (err) {
    return failure({
      check: 'schema',
      code: 'VERIFY_UNREADABLE',
      message: `expected a readable stream, got an error while reading it: ${(err as Error)?.message ?? String(err)}`,
    });
  }
}

/**
 * Bytes copied as they arrive (a source may refill one buffer between chunks), up to a limit,
 * so that most bytes are copied once (docs/benchmarks.md). The first FIRST_BYTES are kept as a
 * copy of each chunk, joined when asked for: a large buffer for every short stream made the
 * engine collect sooner (1.15 times as long on a 2.4 MB record read again and again). Past
 * them, the pieces and every later chunk go into one buffer of the limit's size, or of
 * BUFFER_BYTES doubled when full for a larger limit; its pages are touched only where written.
 */
class HeldBytes {
  readonly #limit: number;
  readonly #pieces: Uint8Array[] = [];
  #length = 0;
  // Once the stream is past FIRST_BYTES: the buffer every chunk is copied into.
  #buffer: Uint8Array | null = null;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Copies `chunk` in and returns true, or returns false when it would pass the limit. */
  add(chunk: Uint8Array): boolean {
    const at = this.#length;
    const length = at + chunk.length;
    if (length > this.#limit) return false;
    this.#length = length;
    let buffer = this.#buffer;
    if (buffer === null) {
      if (length <= FIRST_BYTES) {
        this.#pieces.push(new Uint8Array(chunk));
        return true;
      }
      buffer = this.#buffer = this.#joined(Math.min(this.#limit, Math.max(BUFFER_BYTES, length)));
    } else if (length > buffer.length) {
      // Only past BUFFER_BYTES, with a larger limit (Infinity holds every stream whole).
      const grown = new Uint8Array(Math.min(this.#limit, Math.max(2 * buffer.length, length)));
      grown.set(buffer.subarray(0, at));
      buffer = this.#buffer = grown;
    }
    buffer.set(chunk, at);
    return true;
  }

  /** The bytes held, in one buffer. */
  bytes(): Uint8Array {
    if (this.#buffer === null) this.#buffer = this.#joined(this.#length);
    return this.#buffer.subarray(0, this.#length);
  }

  /** The pieces copied, in order, into a new buffer of `size` bytes; the pieces are let go. */
  #joined(size: number): Uint8Array {
    const pieces = this.#pieces;
    if (pieces.length === 1 && (pieces[0] as Uint8Array).length === size)
      return pieces.pop() as Uint8Array;
    const out = new Uint8Array(size);
    let at = 0;
    for (const piece of pieces) {
      out.set(piece, at);
      at += piece.length;
    }
    pieces.length = 0;
    return out;
  }
}

/** Bytes kept as copies of their chunks before they are copied into one buffer. */
const FIRST_BYTES = 8 << 20;
/** That buffer's first size (the limit, when smaller); it doubles when full. */
const BUFFER_BYTES = 64 << 20;

function invalidUtf8(err: unknown): VerifyResult {
  // Only InvalidUtf8Chunk is thrown by the decoder; anything else ends in the outer catch.
  if (!(err instanceof InvalidUtf8Chunk)) throw err;
  return failure({ check: 'schema', code: 'JSON_INVALID_UTF8', message: err.message });
}

async function* chunksOf(source: ByteSource): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Reading errors that end the reading (syntax, nesting) and those that only spoil the verdict. */
const HARD: ReadonlySet<string> = new Set(['JSON_SYNTAX', 'JSON_TOO_DEEP', 'JSON_EMPTY']);

class StreamReader implements SplitSink {
  readonly #options: VerifyOptions;
  readonly #splitter = new RecordSplitter(this);
  readonly #top: JsonObject = {};
  readonly #names = new Set<string>();
  #streamed = false;
  #hard: JsonReadError | null = null;
  #semantic: JsonReadError | null = null;
  #wholeText: string | null = null;
  readonly #steps: EventSteps;
  readonly #batchReader: BatchReader;
  // The chain's head now: where the pass chains a batch from when it begins reading it.
  readonly #head = (): string => this.#steps.head;

  constructor(options: VerifyOptions, reorderBudget: number, wasm: boolean) {
    this.#options = options;
    this.#batchReader = new BatchReader(wasm);
    this.#steps = new EventSteps(new StreamCassette(reorderBudget));
  }

  feed(text: string, ascii?: Uint8Array): void {
    // After a reading error the rest is still decoded (invalid UTF-8 anywhere wins), not read.
    if (this.#hard === null) this.#splitter.feed(text, ascii);
  }

  finish(): VerifyResult {
    if (this.#hard === null) this.#splitter.finish();
    const error = this.#hard ?? this.#splitter.error ?? this.#semantic;
    if (error !== null)
      return failure({ check: 'schema', code: error.code, message: error.message });
    if (!this.#splitter.seenAny)
      return failure({
        check: 'schema',
        code: 'JSON_EMPTY',
        message: 'empty input: expected a JSON value',
      });
    if (this.#wholeText !== null) {
      const parsed = parseJsonStrict(this.#wholeText);
      if (!parsed.ok)
        return failure({ check: 'schema', code: parsed.error.code, message: parsed.error.message });
      return verifyWithPolicy(parsed.value, this.#options);
    }
    return this.#result();
  }

  member(name: string, text: string): void {
    if (this.#hard !== null) return;
    const parsed = parseJsonStrict(text, { maxDepth: DEFAULT_MAX_DEPTH - 1 });
    if (!parsed.ok) return this.#readError(parsed.error);
    if (this.#names.has(name)) return this.#duplicate(name);
    if (this.#semantic !== null) return;
    this.#names.add(name);
    Object.defineProperty(this.#top, name, {
      value: parsed.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }

  eventsStart(): void {
    if (this.#hard !== null) return;
    if (this.#names.has('events')) return this.#duplicate('events');
    this.#names.add('events');
    this.#streamed = true;
    this.#top['events'] = [];
  }

  eventEnd(batch: EventBatch, at: number): number {
    if (this.#hard !== null) return -1;
    return this.#batchReader.eventEnd(batch, at, this.#head);
  }

  events(batch: EventBatch): void {
    if (this.#hard !== null) return;
    const reader = this.#batchReader;
    reader.read(batch, this.#steps.head);
    for (let k = 0; k < batch.count && this.#hard === null; k++) {
      const index = batch.first + k;
      const hash = reader.hash(k);
      const view = reader.view(k);
      if (view === undefined) {
        this.#event(batch.eventText(k), index, reader.spanOf(k), hash);
        continue;
      }
      // A view is of an event the pass proved JSON, so there is nothing for the strict reader
      // to report in it (as verifyJson trusts its views). The chain hashes a proven event it
      // did not chain from its canonical text, never from the view, which lacks members.
      if (this.#semantic !== null) continue;
      this.#steps.add(
        view,
        index,
        hash === undefined ? reader.eventText(k) : undefined,
        hash,
        reader,
      );
    }
  }

  /**
   * Reads one event; `spans` holds it when the pass proved it, and `hash` its chain hash (both
   * trusted only once the strict reader accepted the text, as in verifyJson).
   */
  #event(
    text: string,
    index: number,
    spans: ProvenSpans | undefined,
    hash: string | undefined,
  ): void {
    // After a duplicate or an out-of-range number the record is invalid, but a later syntax
    // error still takes precedence (as in verifyJson), so pieces are still read.
    const parsed = parseJsonStrictSpans(text, { maxDepth: DEFAULT_MAX_DEPTH - 2 }, spans);
    if (!parsed.ok) return this.#readError(parsed.error);
    if (this.#semantic !== null) return;
    this.#steps.add(parsed.value, index, undefined, hash, this.#batchReader);
  }

  whole(text: string): void {
    this.#wholeText = text;
  }

  #readError(pieceError: JsonReadError): void {
    // A piece (a member's value, an event) with no text at all is a value missing inside the
    // record, e.g. `{"$schema":]`: a syntax error of the whole text, as verifyJson reports it,
    // never the whole input being empty.
    const error: JsonReadError =
      pieceError.code === 'JSON_EMPTY'
        ? { ...pieceError, code: 'JSON_SYNTAX', message: 'expected a JSON value, got none' }
        : pieceError;
    if (HARD.has(error.code)) this.#hard = error;
    else this.#semantic ??= error;
  }

  #duplicate(name: string): void {
    this.#semantic ??= {
      code: 'JSON_DUPLICATE_MEMBER',
      message: `duplicate member name ${JSON.stringify(name)} in the top-level object (expected each member name once per object)`,
      pointer: '',
    };
  }

  #result(): VerifyResult {
    const parts = partsOf(this.#top);
    return eventStepsResult(
      this.#steps,
      parts,
      this.#streamed && parts.events !== null,
      this.#options,
    );
  }
}
