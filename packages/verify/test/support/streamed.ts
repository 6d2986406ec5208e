// Shared by the verifyStream tests: bytes cut into chunks, and the parts of a result every
// reading must agree on.
import type { VerifyResult } from '../../src/index.js';

/** `bytes` as chunks; chunk k is `size(k)` bytes long (at least 1). */
export async function* chunked(
  bytes: Uint8Array,
  size: (k: number) => number,
): AsyncGenerator<Uint8Array> {
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const n = Math.max(1, size(k));
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

/** The parts of a result every call site must agree on (syntax-error wording may differ). */
export const comparable = (r: VerifyResult) => ({
  verdict: r.verdict,
  checks: r.checks,
  codes: r.errors.map((e) => e.code),
  indexes: r.errors.map((e) => e.event_index),
  notes: r.notes.map((n) => n.code),
  messages: r.errors.filter((e) => !e.code.startsWith('JSON_')).map((e) => e.message),
});
