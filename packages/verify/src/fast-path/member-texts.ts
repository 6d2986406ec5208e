// The canonical texts of the event members the cassette reads (docs/spec.md §4.3) that are
// not canonical as written in the record: kept as ranges of the UTF-8 the event writer wrote
// (it keeps them one after another), and decoded into strings once, at the end, in one piece
// when they are ASCII (a decoding per member costs more than the text it makes).
import { grown } from './grown.js';

const decoder = new TextDecoder();

export class MemberTexts {
  #starts = new Int32Array(256);
  #ends = new Int32Array(256);
  #count = 0;

  /** Records bytes[s, e) of the writer's output as the next text; returns its index. */
  add(s: number, e: number): number {
    if (this.#count === this.#starts.length) {
      this.#starts = grown(this.#starts, new Int32Array(this.#count * 2));
      this.#ends = grown(this.#ends, new Int32Array(this.#count * 2));
    }
    const k = this.#count++;
    this.#starts[k] = s;
    this.#ends[k] = e;
    return k;
  }

  /** Forgets the texts recorded so far (the next is text 0). */
  clear(): void {
    this.#count = 0;
  }

  /** Text k is bytes[starts[k], ends[k]) of the output the ranges were recorded in. */
  get starts(): Int32Array {
    return this.#starts;
  }

  get ends(): Int32Array {
    return this.#ends;
  }

  /** The texts as strings (see textsOf). */
  strings(bytes: Uint8Array): string[] {
    return textsOf(bytes, this.#starts, this.#ends, this.#count);
  }
}

/**
 * Texts k < count, bytes[starts[k], ends[k]), as strings; they lie one after another. When the
 * bytes of all of them are ASCII, one decoding serves all and each text is a slice of it
 * (sharing its storage); otherwise each is decoded on its own.
 */
export function textsOf(
  bytes: Uint8Array,
  starts: Int32Array,
  ends: Int32Array,
  count: number,
): string[] {
  const texts: string[] = [];
  if (count === 0) return texts;
  const from = starts[0] as number;
  const to = ends[count - 1] as number;
  const all = decoder.decode(bytes.subarray(from, to));
  // UTF-8 writes every non-ASCII character in more bytes than UTF-16 code units.
  if (all.length === to - from) {
    for (let k = 0; k < count; k++)
      texts.push(all.slice((starts[k] as number) - from, (ends[k] as number) - from));
  } else {
    for (let k = 0; k < count; k++) texts.push(decoder.decode(bytes.subarray(starts[k], ends[k])));
  }
  return texts;
}
