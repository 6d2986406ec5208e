// Splits a record's JSON text, arriving in chunks, into its top-level members and the
// elements of its `events` array, without holding more than one member or event at a time
// (docs/spec.md §6). It checks only the structure it walks; each piece it hands on is read
// by the strict reader, which checks the rest.
import type { JsonReadError } from '../json/types.js';

/** What the splitter hands on, in text order. */
export interface SplitSink {
  /** A top-level member other than an `events` array: its name and its value's text. */
  member(name: string, text: string): void;
  /** The top-level `events` member is an array; its elements follow. */
  eventsStart(): void;
  /** One element of the events array, with its index. */
  event(text: string, index: number): void;
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

  feed(chunk: string): void {
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
            i++;
          } else if (c === 0x5d || c === 0x2c) {
            return this.#fail(i, 'expected an event');
          } else this.#begin(State.InElement);
          break;
        case State.AfterElement:
          if (c === 0x2c) this.#state = State.Element;
          else if (c === 0x5d) this.#state = State.AfterMember;
          else return this.#fail(i, "expected ',' or ']' after an event");
          i++;
          break;
        default:
          return this.#fail(i, 'unexpected character after the JSON value');
      }
    }
    this.#offset += n;
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
    let i = at;
    let depth = this.#depth;
    let inString = this.#inString;
    let escape = this.#escape;
    const first = this.#parts.length === 0;
    let done = -1; // index just after the captured text, when it ends in this chunk
    for (; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escape) escape = false;
        else if (c === 0x5c) escape = true;
        else if (c === 0x22) {
          inString = false;
          if (depth === 0) {
            done = i + 1;
            break;
          }
        }
        continue;
      }
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
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escape = escape;
    if (done < 0) {
      this.#parts.push(at === 0 ? chunk : chunk.slice(at));
      return n;
    }
    this.#parts.push(chunk.slice(at, done));
    this.#complete();
    return done;
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
      case State.InValue:
        this.#state = State.AfterMember;
        this.#sink.member(this.#name, text);
        return;
      default:
        this.#state = State.AfterElement;
        this.#sink.event(text, this.#events++);
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
