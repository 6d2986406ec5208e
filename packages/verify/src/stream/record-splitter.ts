// Splits a record's JSON text, arriving in chunks, into its top-level members and the
// elements of its `events` array, without holding more than one member, or one chunk's events,
// at a time (docs/spec.md §6). It checks only the structure it walks; each piece it hands on
// is read by the strict reader, which checks the rest, or, for an event, proven JSON by the
// canonicalizing pass (batch-reader.ts).
//
// The events are handed on by chunk, as places in the chunk's text (the event the chunk began
// inside goes first, alone, its carried text joined to the chunk's start), so that one pass of
// the canonicalizing reader over that text chains them all (batch-reader.ts). That pass reads
// each element as the splitter comes to it (SplitSink.eventEnd), and the splitter walks only
// the elements it declines; string bodies are skipped with indexOf.
import type { JsonReadError } from '../json/types.js';
import { EventBatch } from './event-batch.js';

/** What the splitter hands on, in text order. */
export interface SplitSink {
  /** A top-level member other than an `events` array: its name and its value's text. */
  member(name: string, text: string): void;
  /** The top-level `events` member is an array; its elements follow. */
  eventsStart(): void;
  /** Consecutive elements of the events array (its places are reused once this returns). */
  events(batch: EventBatch): void;
  /**
   * An element of the events array begins at `at` in the batch's text, with the batch's
   * elements so far before it: the index just after it when the sink read all of it (and
   * holds what it read for the batch), else -1 and the splitter finds its end.
   */
  eventEnd(batch: EventBatch, at: number): number;
  /** The text is not an object at all: the whole of it. */
  whole(text: string): void;
}

const enum State {
  Start,
  NameOrClose,
  Name,
  InName,
  Colon,
  Value,
  InValue,
  AfterMember,
  ElementOrClose,
  Element,
  InElement,
  AfterElement,
  End,
  Whole,
}

/**
 * Events handed on at once at most: what is kept per event of a batch (a chain hash, a few
 * numbers) stays bounded however many small events one chunk holds.
 */
const BATCH_EVENTS = 256;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Walks the text chunk by chunk; the first structural error stops it. */
export class RecordSplitter {
  readonly #sink: SplitSink;
  #state = State.Start;
  #error: JsonReadError | null = null;
  #offset = 0;
  #parts: string[] = [];
  #name = '';
  #events = 0;
  // The value being captured: nesting depth, inside a string, after a backslash.
  #depth = 0;
  #inString = false;
  #escape = false;
  #seenAny = false;
  // The events completed in the current chunk, as places in #carry + chunk; #carry is the
  // text of the element the chunk began inside (empty when it began outside one).
  readonly #batch = new EventBatch();
  #carry = '';
  #elementStart = -1;
  // The current chunk's characters as bytes, when given (it is all ASCII).
  #bytes: Uint8Array | undefined = undefined;
  // The next backslash at or after where the current chunk is being read (chunk length: none
  // left; -1: not looked for yet).
  #backslash = -1;

  constructor(sink: SplitSink) {
    this.#sink = sink;
  }

  /** The structural error, once there is one. */
  get error(): JsonReadError | null {
    return this.#error;
  }

  /** Whether any character other than JSON whitespace was seen. */
  get seenAny(): boolean {
    return this.#seenAny;
  }

  /** Reads the next chunk of text; `bytes`, when given, holds its characters (all ASCII). */
  feed(chunk: string, bytes?: Uint8Array): void {
    const n = chunk.length;
    this.#backslash = -1;
    if (this.#state === State.InElement) {
      this.#carry = this.#parts.join('');
      this.#parts = [];
      this.#elementStart = 0;
    } else this.#carry = '';
    this.#bytes = bytes;
    this.#batch.reset(this.#carry, chunk, this.#events, bytes);
    this.#walk(chunk);
    this.#flush(chunk);
    this.#bytes = undefined;
    this.#offset += n;
  }

  /** Hands on the events completed in the chunk; keeps the text of one still open. */
  #flush(chunk: string): void {
    if (this.#batch.count > 0) {
      this.#sink.events(this.#batch);
      this.#batch.reset(this.#carry, chunk, this.#events);
    }
    if (this.#state === State.InElement && this.#error === null) {
      const at = this.#elementStart - this.#carry.length;
      this.#parts = at < 0 ? [this.#carry, chunk] : [at === 0 ? chunk : chunk.slice(at)];
    }
  }

  #walk(chunk: string): void {
    let i = 0;
    const n = chunk.length;
    while (i < n && this.#error === null) {
      const state = this.#state;
      if (state === State.Whole) {
        this.#parts.push(chunk.slice(i));
        break;
      }
      if (state === State.InName || state === State.InValue || state === State.InElement) {
        i = this.#capture(chunk, i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (isSpace(c)) {
        i++;
        continue;
      }
      this.#seenAny = true;
      switch (state) {
        case State.Start:
          if (c === 0x7b) {
            this.#state = State.NameOrClose;
            i++;
          } else this.#state = State.Whole;
          break;
        case State.NameOrClose:
        case State.Name:
          if (c === 0x7d && state === State.NameOrClose) {
            this.#state = State.End;
            i++;
          } else if (c === 0x22) {
            this.#begin(State.InName);
          } else return this.#fail(i, 'expected a member name in double quotes');
          break;
        case State.Colon:
          if (c !== 0x3a) return this.#fail(i, "expected ':' after the member name");
          this.#state = State.Value;
          i++;
          break;
        case State.Value:
          if (this.#name === 'events' && c === 0x5b) {
            this.#sink.eventsStart();
            this.#state = State.ElementOrClose;
            i++;
          } else this.#begin(State.InValue);
          break;
        case State.AfterMember:
          if (c === 0x2c) this.#state = State.Name;
          else if (c === 0x7d) this.#state = State.End;
          else return this.#fail(i, "expected ',' or '}' after a member");
          i++;
          break;
        case State.ElementOrClose:
        case State.Element:
          if (c === 0x5d && state === State.ElementOrClose) {
            this.#state = State.AfterMember;
            this.#flush(chunk);
            i++;
          } else if (c === 0x5d || c === 0x2c) {
            return this.#fail(i, 'expected an event');
          } else {
            // The carry is empty here (an element that began in the chunk before ends before
            // any other begins), so the batch's places are the chunk's.
            const end = this.#carry === '' ? this.#sink.eventEnd(this.#batch, i) : -1;
            if (end > i) {
              this.#add(i, end);
              this.#state = State.AfterElement;
              i = end;
              break;
            }
            this.#begin(State.InElement);
            this.#elementStart = this.#carry.length + i;
          }
          break;
        case State.AfterElement:
          if (c === 0x2c) this.#state = State.Element;
          else if (c === 0x5d) {
            this.#state = State.AfterMember;
            // The members after the array come after its events.
            this.#flush(chunk);
          } else return this.#fail(i, "expected ',' or ']' after an event");
          i++;
          break;
        default:
          return this.#fail(i, 'unexpected character after the JSON value');
      }
    }
  }

  /** Ends the text; reports an unfinished record as a syntax error. */
  finish(): void {
    if (this.#error !== null) return;
    if (this.#state === State.Whole) {
      this.#sink.whole(this.#parts.join(''));
      this.#parts = [];
      return;
    }
    if (this.#state === State.InValue && this.#depth === 0 && !this.#inString) {
      // A scalar value at the very end (the closing brace is missing anyway).
      this.#complete();
    }
    if (this.#state !== State.End && this.#seenAny)
      this.#fail(0, 'unexpected end of input (the text is truncated or an object is not closed)');
  }

  #begin(state: State): void {
    this.#state = state;
    this.#parts = [];
    this.#depth = 0;
    this.#inString = false;
    this.#escape = false;
  }

  /**
   * Captures the current name, value or element from `at`; returns where it stopped. A
   * string or container ends after its closing character; a number or literal ends before
   * the first character that cannot continue it.
   */
  #capture(chunk: string, at: number): number {
    const n = chunk.length;
    const element = this.#state === State.InElement;
    let i = at;
    let depth = this.#depth;
    let inString = this.#inString;
    let escape = this.#escape;
    // Whether `at` is the captured text's first character (where a quote or bracket opens it).
    const first = element
      ? this.#carry.length + at === this.#elementStart
      : this.#parts.length === 0;
    let done = -1; // index just after the captured text, when it ends in this chunk
    while (i < n) {
      if (inString) {
        if (escape) {
          escape = false;
          i++;
          continue;
        }
        // A string body up to its closing quote in one search, unless a backslash comes
        // first: then the character after it is skipped, whatever it is.
        let backslash = this.#backslash;
        if (backslash < i) {
          backslash = chunk.indexOf('\\', i);
          this.#backslash = backslash = backslash < 0 ? n : backslash;
        }
        const quote = chunk.indexOf('"', i);
        const stop = quote < 0 ? n : quote;
        if (backslash < stop) {
          escape = true;
          i = backslash + 1;
          continue;
        }
        if (quote < 0) {
          i = n;
          break;
        }
        inString = false;
        i = quote + 1;
        if (depth === 0) {
          done = i;
          break;
        }
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 0x22) {
        if (depth === 0 && !(first && i === at)) {
          done = i; // a quote straight after a scalar: let the caller report it
          break;
        }
        inString = true;
      } else if (c === 0x7b || c === 0x5b) {
        if (depth === 0 && !(first && i === at)) {
          done = i;
          break;
        }
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) {
          done = i;
          break;
        }
        depth--;
        if (depth === 0) {
          done = i + 1;
          break;
        }
      } else if (depth === 0 && (c === 0x2c || isSpace(c) || c === 0x3a)) {
        done = i;
        break;
      }
      i++;
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escape = escape;
    if (element) {
      // Its text stays in the chunk (see #flush) until the element ends.
      if (done < 0) return n;
      if (this.#carry !== '') {
        this.#handOnCarried(chunk, done);
      } else {
        this.#add(this.#elementStart, done);
      }
      this.#state = State.AfterElement;
      return done;
    }
    if (done < 0) {
      this.#parts.push(at === 0 ? chunk : chunk.slice(at));
      return n;
    }
    this.#parts.push(chunk.slice(at, done));
    this.#complete();
    return done;
  }

  /** Adds the element chunk[start, end) to the batch; hands the batch on when it is full. */
  #add(start: number, end: number): void {
    this.#batch.add(start, end);
    this.#events++;
    if (this.#batch.count === BATCH_EVENTS) {
      this.#sink.events(this.#batch);
      this.#batch.clear(this.#events);
    }
  }

  /**
   * Hands on the element the chunk began inside, which ends at `done`, as a batch of its own
   * (its text: the carried text and the chunk up to there); the chunk's other events then
   * index the chunk itself, which is never joined to the carry and so never copied whole.
   */
  #handOnCarried(chunk: string, done: number): void {
    const carry = this.#carry;
    this.#batch.reset(carry, chunk.slice(0, done), this.#events, this.#bytes?.subarray(0, done));
    this.#batch.add(0, carry.length + done);
    this.#events++;
    this.#sink.events(this.#batch);
    this.#carry = '';
    this.#batch.reset('', chunk, this.#events, this.#bytes);
  }

  #complete(): void {
    const text = this.#parts.join('');
    this.#parts = [];
    switch (this.#state) {
      case State.InName: {
        let name: unknown;
        try {
          name = JSON.parse(text);
        } catch {
          name = undefined;
        }
        if (typeof name !== 'string') {
          this.#fail(0, 'expected a member name in double quotes');
          return;
        }
        this.#name = name;
        this.#state = State.Colon;
        return;
      }
      default:
        this.#state = State.AfterMember;
        this.#sink.member(this.#name, text);
    }
  }

  #fail(at: number, message: string): void {
    this.#error = {
      code: 'JSON_SYNTAX',
      message: `${message} (near character ${this.#offset + at} of the text)`,
      offset: this.#offset + at,
    };
  }
}
