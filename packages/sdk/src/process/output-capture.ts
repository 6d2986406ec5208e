// A command's standard output or error as the record keeps it: the text up to a limit, and the
// length and SHA-256 of the whole stream, so a long output is still pinned exactly.
import { createHash, type Hash } from 'node:crypto';

/** How a captured stream is stored in the run-end event. */
export interface CapturedOutput {
  /** The first `limit` bytes, decoded as UTF-8 (invalid sequences become U+FFFD). */
  readonly text: string;
  /** Total bytes written. */
  readonly bytes: number;
  /** SHA-256 of every byte written, lowercase hex. */
  readonly sha256: string;
  /** Whether `text` holds less than the whole stream. */
  readonly truncated: boolean;
}

/** Accumulates one stream. */
export class OutputCapture {
  readonly #limit: number;
  readonly #hash: Hash = createHash('sha256');
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(chunk: Uint8Array): void {
    this.#hash.update(chunk);
    this.#total += chunk.length;
    if (this.#keptBytes < this.#limit) {
      const part = Buffer.from(chunk.subarray(0, this.#limit - this.#keptBytes));
      this.#kept.push(part);
      this.#keptBytes += part.length;
    }
  }

  result(): CapturedOutput {
    return {
      text: new TextDecoder().decode(Buffer.concat(this.#kept)),
      bytes: this.#total,
      sha256: this.#hash.digest('hex'),
      truncated: this.#total > this.#keptBytes,
    };
  }
}
