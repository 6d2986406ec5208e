// The two oracle chains of the cassette digest (docs/spec.md §4.1, §4.3), one per output
// reading, fed entry by entry in seq order: they share every step up to the first entry the
// readings disagree on, so a record where they never do costs one chain.
import { EMPTY_SHA256, sha256Hex } from '@runback/canonical';
import type { CassetteDigestsByReading } from '@runback/replay-digest';

/** Where the two chains stand: what `ReadingChains.restore` goes back to. */
export interface ChainsState {
  readonly published: string;
  readonly seed: string;
  readonly diverged: boolean;
  readonly count: number;
}

export class ReadingChains {
  #published = '';
  #seed = '';
  #diverged = false;
  #count = 0;

  /** Hashes the next entry, whose text is `published` and `seed` under the two readings. */
  add(published: string, seed: string): void {
    this.#count++;
    if (!this.#diverged && seed === published) {
      this.#published = this.#seed = sha256Hex(this.#published + published);
      return;
    }
    this.#diverged = true;
    this.#published = sha256Hex(this.#published + published);
    this.#seed = sha256Hex(this.#seed + seed);
  }

  /** Where the chains stand now (read one member at a time, so no object is made). */
  get publishedHead(): string {
    return this.#published;
  }

  get seedHead(): string {
    return this.#seed;
  }

  get diverged(): boolean {
    return this.#diverged;
  }

  get count(): number {
    return this.#count;
  }

  /** Goes back to where the chains stood at `state` (entries hashed since are forgotten). */
  restore(state: ChainsState): void {
    this.#published = state.published;
    this.#seed = state.seed;
    this.#diverged = state.diverged;
    this.#count = state.count;
  }

  /** The digests so far under both readings (sha256("") before the first entry). */
  digests(): CassetteDigestsByReading {
    const digestOf = (head: string) => ({
      digest: this.#count === 0 ? EMPTY_SHA256 : head,
      entryCount: this.#count,
    });
    return {
      published: digestOf(this.#published),
      seed: digestOf(this.#seed),
      diverged: this.#diverged,
    };
  }
}
