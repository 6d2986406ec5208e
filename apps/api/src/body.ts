// Reading request bodies with a size limit enforced while the stream is read: a body larger
// than the limit is refused (413) as soon as the limit is crossed, never buffered whole.
import { readJsonStrict } from '@runback/verify';
import { ApiError, describeValue } from './errors.js';

/** The largest record `POST /api/audit/verify` accepts: 8 MiB. */
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** The largest JSON body of the other endpoints (an event batch, a run start): 8 MiB too. */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;

function tooLarge(limit: number, got: string): ApiError {
  return new ApiError(
    413,
    'BODY_TOO_LARGE',
    `expected a body of at most ${limit} bytes, got ${got}`,
  );
}

/**
 * Reads a request body up to `limit` bytes. A declared Content-Length above the limit is
 * refused before a byte is read; otherwise the stream is read chunk by chunk and cancelled the
 * moment the total passes the limit.
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    throw tooLarge(limit, `Content-Length ${declared}`);
  }
  const body = request.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const step: { readonly done: boolean; readonly value?: unknown } = await reader.read();
    if (step.done) break;
    const value = step.value;
    if (!(value instanceof Uint8Array)) {
      await reader.cancel().catch(() => undefined);
      throw new TypeError(`expected the request body to stream bytes, got ${describeValue(value)}`);
    }
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit, `more than ${limit} bytes`);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads a JSON request body strictly (docs/spec.md §6: strict UTF-8, RFC 8259, no duplicate
 * member names, bounded depth), with the size limit of {@link readBodyLimited}.
 */
export async function readJsonBody(request: Request, limit = MAX_JSON_BYTES): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (type !== null && !/^application\/(?:[\w.+-]*\+)?json\b/i.test(type)) {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `expected Content-Type application/json, got ${JSON.stringify(type)}`,
    );
  }
  const bytes = await readBodyLimited(request, limit);
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok) {
    throw new ApiError(400, 'MALFORMED_JSON', `expected a JSON body, got ${parsed.error.message}`);
  }
  return parsed.value;
}
