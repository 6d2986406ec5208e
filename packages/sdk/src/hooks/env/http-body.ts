// HTTP bodies as stored in `fetch` events: UTF-8 text when the bytes are valid UTF-8, base64
// otherwise, so any body round-trips exactly through the record.
import { keptHeaders } from '../providers/http-headers.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The request's body bytes, read from a clone (the request stays sendable). */
export async function requestBodyBytes(request: Request): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  return new Uint8Array(await request.clone().arrayBuffer());
}

/** A body as JSON data: `{ text }` for UTF-8, `{ base64 }` for anything else. */
export function bodyOf(bytes: Uint8Array): { text: string } | { base64: string } {
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { base64: Buffer.from(bytes).toString('base64') };
  }
}

/** The bytes of a stored body. */
export function bytesOf(body: { text: string } | { base64: string }): Uint8Array {
  return 'text' in body ? new TextEncoder().encode(body.text) : Buffer.from(body.base64, 'base64');
}

/**
 * The recorded form of a response (status, status text, the kept headers, the body), and a fresh
 * Response with the same status, all its headers and the same body.
 */
export async function responseRecord(
  response: Response,
): Promise<{ output: Record<string, unknown>; replacement: Response }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  // The headers a program acts on, never credentials (providers/http-headers.ts); the caller's
  // replacement keeps them all.
  const headers = keptHeaders(response.headers, 'fetch');
  const output = {
    body: bodyOf(bytes),
    headers,
    status: response.status,
    status_text: response.statusText,
  };
  return {
    output,
    replacement: rebuildResponse(
      response.url,
      output.status,
      response.statusText,
      response.headers,
      bytes,
    ),
  };
}

/** A Response carrying `url` as the original did (the constructor cannot set it). */
export function rebuildResponse(
  url: string,
  status: number,
  statusText: string,
  headers: HeadersInit,
  bytes: Uint8Array,
): Response {
  // 101, 204, 205 and 304 responses cannot carry a body.
  const nullBody = status === 101 || status === 204 || status === 205 || status === 304;
  const response = new Response(nullBody ? null : (bytes as Uint8Array<ArrayBuffer>), {
    status,
    statusText,
    headers,
  });
  if (url !== '') Object.defineProperty(response, 'url', { value: url });
  return response;
}
