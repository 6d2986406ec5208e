// The canonical texts of the event members the cassette reads (docs/spec.md §4.3) that are
// not canonical as written in the record: kept as ranges of the UTF-8 the event writer wrote
// (which keeps the output of every event holding one), and decoded into strings only when
// asked for (most callers hash them, and a string per member would cost a decoding and an
// allocation each).
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

  /** Text k is bytes[starts[k], ends[k]) of the output the ranges were recorded in. */
  get starts(): Int32Array {
    return this.#starts;
  }

  get ends(): Int32Array {
    return this.#ends;
  }

  /** The texts as an array of strings, each decoded when first read. */
  strings(bytes: Uint8Array): readonly string[] {
    const starts = this.#starts;
    const ends = this.#ends;
    const count = this.#count;
    const cache: (string | undefined)[] = [];
    const textAt = (k: number): string => {
      let text = cache[k];
      if (text === undefined) {
        text = decoder.decode(bytes.subarray(starts[k], ends[k]));
        cache[k] = text;
      }
      return text;
    };
    // An array target keeps Array.isArray and the array methods; reads of an index or of
    // `length` are answered here.
    return new Proxy([] as string[], {
      get(target, key, receiver) {
        if (key === 'length') return count;
        if (typeof key === 'string') {
          const k = arrayIndex(key);
          if (k >= 0) return k < count ? textAt(k) : undefined;
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
      has(target, key) {
        if (typeof key === 'string') {
          const k = arrayIndex(key);
          if (k >= 0) return k < count;
        }
        return Reflect.has(target, key);
      },
      set() {
        return false;
      },
    });
  }
}

/** `key` as an array index (a canonical non-negative integer string), else -1. */
function arrayIndex(key: string): number {
  if (key.length === 0 || key.length > 9) return -1;
  const c = key.charCodeAt(0);
  if (c < 0x30 || c > 0x39 || (c === 0x30 && key.length > 1)) return -1;
  for (let i = 1; i < key.length; i++) {
    const d = key.charCodeAt(i);
    if (d < 0x30 || d > 0x39) return -1;
  }
  return Number(key);
}
