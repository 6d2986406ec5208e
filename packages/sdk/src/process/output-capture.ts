// A command's standard output or error as the record keeps it (docs/guides/recording.md,
// "`runback record`"): the text up to a limit, the number of bytes written, and a SHA-256 that
// pins the whole stream as stored — after redaction, so that the digest never lets anyone
// confirm a guessed secret offline.
//
// The digest is taken over the stream redacted line by line: the output is decoded as UTF-8
// (invalid sequences become U+FFFD), cut into lines, each line redacted with the run's rules,
// and the redacted lines hashed as UTF-8. A PEM private key block is redacted as one unit; a
// line longer than MAX_SEGMENT is cut at its last whitespace before the limit. The kept `text`
// is redacted with the rest of its event, as a whole (so its redaction sites are listed):
// when `truncated` is false, `sha256` is the SHA-256 of `text` unless a redaction of the whole
// text reached across lines (a JSON document whose secret member's value spans lines).
import { createHash, type Hash } from 'node:crypto';
import { Redactor } from '../redact/index.js';

/** What `sha256` covers, stated in the record next to it. */
export const OUTPUT_DIGEST_COVERS = 'redacted-lines';

/** How a captured stream is stored in the run-end event. */
export interface CapturedOutput {
  /** The first `limit` bytes, decoded as UTF-8 (invalid sequences become U+FFFD). */
  readonly text: string;
  /** Total bytes written. */
  readonly bytes: number;
  /** SHA-256 of the whole stream redacted line by line (see `sha256_covers`), lowercase hex. */
  readonly sha256: string;
  /** What `sha256` covers: always `"redacted-lines"`. */
  readonly sha256_covers: typeof OUTPUT_DIGEST_COVERS;
  /** Whether `text` holds less than the whole stream. */
  readonly truncated: boolean;
}

/** Longest run of text redacted as one unit before it is cut (a line, or a PEM block). */
const MAX_SEGMENT = 1 << 20;

/** Accumulates one stream. */
export class OutputCapture {
  readonly #limit: number;
  readonly #redactor: Redactor;
  readonly #hash: Hash = createHash('sha256');
  readonly #decoder = new TextDecoder();
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #total = 0;
  /** Decoded text not yet redacted and hashed: the current line (or PEM block). */
  #pending = '';

  /** `redactor` must apply the run's redaction rules (default: the built-in rules). */
  constructor(limit: number, redactor: Redactor = new Redactor()) {
    this.#limit = limit;
    this.#redactor = redactor;
  }

  add(chunk: Uint8Array): void {
    this.#total += chunk.length;
    if (this.#keptBytes < this.#limit) {
      const part = Buffer.from(chunk.subarray(0, this.#limit - this.#keptBytes));
      this.#kept.push(part);
      this.#keptBytes += part.length;
    }
    this.#pending += this.#decoder.decode(chunk, { stream: true });
    this.#flush(false);
  }

  result(): CapturedOutput {
    this.#pending += this.#decoder.decode();
    this.#flush(true);
    return {
      text: new TextDecoder().decode(Buffer.concat(this.#kept)),
      bytes: this.#total,
      sha256: this.#hash.digest('hex'),
      sha256_covers: OUTPUT_DIGEST_COVERS,
      truncated: this.#total > this.#keptBytes,
    };
  }

  /** Redacts and hashes every complete segment of the pending text (all of it at the end). */
  #flush(end: boolean): void {
    for (;;) {
      const cut = end ? this.#pending.length : segmentEnd(this.#pending);
      if (cut <= 0) return;
      const segment = this.#pending.slice(0, cut);
      this.#pending = this.#pending.slice(cut);
      this.#hash.update(this.#redactor.redactString(segment), 'utf8');
      if (end && this.#pending === '') return;
    }
  }
}

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/;
const PEM_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/;

/**
 * Where the first complete segment of `text` ends (0: not complete yet). A segment is one line
 * with its newline, or, for a line that opens a PEM private key block, every line through the
 * one that closes it. Segments depend only on the text, never on how it arrived in chunks, so
 * the digest is the same however the program's writes were split. A segment that grows past
 * MAX_SEGMENT is cut at its last whitespace before the limit (or at the limit).
 */
function segmentEnd(text: string): number {
  const newline = text.indexOf('\n');
  let end = newline + 1;
  const first = newline < 0 ? text : text.slice(0, newline);
  const begin = first.includes('-----BEGIN ') ? first.search(PEM_BEGIN) : -1;
  if (begin >= 0 && !PEM_END.test(first.slice(begin))) {
    const close = newline < 0 ? -1 : text.slice(end).search(PEM_END);
    const after = close < 0 ? -1 : text.indexOf('\n', end + close);
    end = after + 1;
  }
  if (end > 0 || text.length <= MAX_SEGMENT) return end;
  const space = text.slice(0, MAX_SEGMENT).search(/\s\S*$/);
  return space > 0 ? space + 1 : MAX_SEGMENT;
}
