// The order canonical form writes an object's members in (docs/spec.md §2, rule 3): ascending
// by name in UTF-16 code units. The canonicalizer sorts the items of one object at a time by
// their name spans in the text; a repeated name declines the event, since the strict reader
// rejects the record (§6).
//
// Records repeat a few object shapes many times (every event of a type, every message), so
// the permutation that sorted the last object of a shape is tried first: it is the sorted
// order exactly when the names it lines up are strictly ascending, which count - 1
// comparisons prove (and which also proves the names distinct). Only when that fails are the
// names sorted, and the new permutation remembered. The result never depends on what was
// remembered, only the time it takes.
import { compareNameSpans, compareSpans, unitAt } from './canonical-tokens.js';
import { DECLINED } from './declined.js';

/** Objects with more members than this are sorted with Array.prototype.sort. */
const INSERTION_SORT_MAX = 16;
/** Objects with at most this many members have their permutation remembered. */
const CACHED_MAX = 32;
/** Remembered permutations, by member count and names' first characters. */
const SLOTS = 256;

/**
 * The name text[s, e)'s first three code units as one number that orders as the names do up
 * to there (a missing unit counts below every unit). 3 × 17 bits fit a double exactly.
 */
export function prefixKey(text: string, s: number, e: number): number {
  const first = s < e ? text.charCodeAt(s) + 1 : 0;
  const second = s + 1 < e ? text.charCodeAt(s + 1) + 1 : 0;
  const third = s + 2 < e ? text.charCodeAt(s + 2) + 1 : 0;
  return (first * 0x20000 + second) * 0x20000 + third;
}

export class MemberOrder {
  readonly #slotCount = new Int32Array(SLOTS);
  readonly #slotPerm = new Uint8Array(SLOTS * CACHED_MAX);
  // Scratch: positions (0 .. count - 1) being sorted, and their keys.
  #pos = new Int32Array(64);
  #keys = new Float64Array(64);

  /**
   * Writes the items ids[base, base + count) (an object's members, in the order written)
   * sorted by their names text[ns, ne) into sorted[base, base + count); a repeated name
   * declines the event. `ascii`, when given, holds the text's code units as bytes.
   */
  sort(
    text: string,
    ids: Int32Array,
    sorted: Int32Array,
    base: number,
    count: number,
    ns: Int32Array,
    ne: Int32Array,
    ascii?: Uint8Array,
  ): void {
    if (count < 2) {
      if (count === 1) sorted[base] = ids[base] as number;
      return;
    }
    let slot = -1;
    if (count <= CACHED_MAX) {
      // The shape, roughly: the count and every name's first character.
      let h = count;
      for (let q = 0; q < count; q++) {
        h = (h * 31 + unitAt(text, ascii, ns[ids[base + q] as number] as number)) | 0;
      }
      slot = (h ^ (h >>> 8)) & (SLOTS - 1);
    }
    if (slot >= 0 && this.#slotCount[slot] === count) {
      const perm = this.#slotPerm;
      const at = slot * CACHED_MAX;
      let previous = ids[base + (perm[at] as number)] as number;
      sorted[base] = previous;
      let q = 1;
      for (; q < count; q++) {
        const m = ids[base + (perm[at + q] as number)] as number;
        const order = compareNameSpans(
          text,
          ascii,
          ns[previous] as number,
          ne[previous] as number,
          ns[m] as number,
          ne[m] as number,
        );
        if (order >= 0) break;
        sorted[base + q] = m;
        previous = m;
      }
      if (q === count) return;
    }
    const pos = this.#positions(text, ids, base, count, ns, ne);
    for (let q = 0; q < count; q++) sorted[base + q] = ids[base + (pos[q] as number)] as number;
    if (slot >= 0) {
      this.#slotCount[slot] = count;
      const at = slot * CACHED_MAX;
      for (let q = 0; q < count; q++) this.#slotPerm[at + q] = pos[q] as number;
    }
  }

  /** Positions 0 .. count - 1 of ids[base, ...) sorted by name; a repeated name declines. */
  #positions(
    text: string,
    ids: Int32Array,
    base: number,
    count: number,
    ns: Int32Array,
    ne: Int32Array,
  ): Int32Array {
    if (this.#pos.length < count) {
      let size = this.#pos.length * 2;
      while (size < count) size *= 2;
      this.#pos = new Int32Array(size);
      this.#keys = new Float64Array(size);
    }
    const pos = this.#pos;
    if (count > INSERTION_SORT_MAX) {
      const order = Array.from({ length: count }, (_, q) => q).sort((x, y) => {
        const a = ids[base + x] as number;
        const b = ids[base + y] as number;
        return compareSpans(
          text,
          ns[a] as number,
          ne[a] as number,
          ns[b] as number,
          ne[b] as number,
        );
      });
      for (let q = 0; q < count; q++) pos[q] = order[q] as number;
      for (let q = 1; q < count; q++) {
        const a = ids[base + (pos[q - 1] as number)] as number;
        const b = ids[base + (pos[q] as number)] as number;
        if (
          compareSpans(text, ns[a] as number, ne[a] as number, ns[b] as number, ne[b] as number) ===
          0
        )
          throw DECLINED;
      }
      return pos;
    }
    const keys = this.#keys;
    for (let r = 0; r < count; r++) {
      const v = ids[base + r] as number;
      const vKey = prefixKey(text, ns[v] as number, ne[v] as number);
      let q = r - 1;
      for (; q >= 0; q--) {
        const uKey = keys[q] as number;
        if (uKey < vKey) break;
        const u = ids[base + (pos[q] as number)] as number;
        if (uKey === vKey) {
          const sign = compareSpans(
            text,
            ns[u] as number,
            ne[u] as number,
            ns[v] as number,
            ne[v] as number,
          );
          // Every earlier name equal to this one lies between the last smaller one and here.
          if (sign === 0) throw DECLINED;
          if (sign < 0) break;
        }
        pos[q + 1] = pos[q] as number;
        keys[q + 1] = uKey;
      }
      pos[q + 1] = r;
      keys[q + 1] = vKey;
    }
    return pos;
  }
}
