// Gunzip with the platform's DecompressionStream (browsers, Node 18+, Deno), counting bytes
// as they come so a small bundle cannot expand into an unbounded one.
import { concatBytes } from './bytes.js';
import { issue, type BundleIssue } from './issues.js';

/** The decompressed bytes, or the problem. */
export async function gunzip(
  bytes: Uint8Array,
  maxBytes: number,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; issue: BundleIssue }> {
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    return {
      ok: false,
      issue: issue('BUNDLE_NOT_GZIP', 'expected gzip data (1f 8b), got something else'),
    };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const stream: ReadableStream<Uint8Array> = new Blob([bytes])
      .stream()
      .pipeThrough(new DecompressionStream('gzip'));
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel();
        return {
          ok: false,
          issue: issue(
            'BUNDLE_TOO_LARGE',
            `expected at most ${maxBytes} bytes of tar data, got more`,
          ),
        };
      }
      chunks.push(value);
    }
  } catch (err) {
    return {
      ok: false,
      issue: issue(
        'BUNDLE_NOT_GZIP',
        `expected a complete gzip stream, got: ${err instanceof Error ? err.message : String(err)}`,
      ),
    };
  }
  return { ok: true, bytes: concatBytes(chunks) };
}
