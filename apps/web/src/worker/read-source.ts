// Reads a record's bytes from a file, pasted text or a URL, reporting how far it got and
// hashing the bytes as they arrive (SHA-256 of the file, for the verification report).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { FileFacts, Source } from './protocol.js';

export type OnProgress = (done: number, total: number) => void;

export class SourceError extends Error {
  constructor(
    readonly code: 'SOURCE_FETCH_FAILED' | 'SOURCE_READ_FAILED',
    message: string,
  ) {
    super(message);
  }
}

/** The bytes of the record and the facts the report states about them. */
export async function readSource(
  source: Source,
  onProgress: OnProgress,
): Promise<{ bytes: Uint8Array; facts: FileFacts }> {
  if (source.kind === 'text') {
    const bytes = new TextEncoder().encode(source.text);
    return { bytes, facts: { name: source.name, bytes: bytes.length, sha256: hashOf(bytes) } };
  }
  if (source.kind === 'file') {
    const bytes = await drain(source.file.stream(), source.file.size, onProgress);
    return { bytes, facts: { name: source.name, bytes: bytes.length, sha256: hashOf(bytes) } };
  }
  let response: Response;
  try {
    response = await fetch(source.url, { credentials: 'omit', cache: 'no-store' });
  } catch (err) {
    throw new SourceError(
      'SOURCE_FETCH_FAILED',
      `expected ${source.url} to answer, got a network error: ${(err as Error).message}`,
    );
  }
  if (!response.ok || response.body === null) {
    throw new SourceError(
      'SOURCE_FETCH_FAILED',
      `expected HTTP 200 from ${source.url}, got ${response.status} ${response.statusText}`.trim(),
    );
  }
  const length = Number(response.headers.get('content-length') ?? '0');
  const bytes = await drain(response.body, Number.isFinite(length) ? length : 0, onProgress);
  const name = new URL(source.url, self.location.href).pathname.split('/').pop() || source.url;
  return { bytes, facts: { name, bytes: bytes.length, sha256: hashOf(bytes) } };
}

function hashOf(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

async function drain(
  stream: ReadableStream<Uint8Array>,
  expected: number,
  onProgress: OnProgress,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let done = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks.push(next.value);
      done += next.value.length;
      onProgress(done, Math.max(expected, done));
    }
  } catch (err) {
    throw new SourceError(
      'SOURCE_READ_FAILED',
      `expected to read the whole record, got an error after ${done} bytes: ${(err as Error).message}`,
    );
  }
  const out = new Uint8Array(done);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
