// The response headers a record keeps (docs/guides/replay.md: `metadata.http_headers` of an llm
// event, `output.headers` of a fetch event), so that a replay answers with the same status,
// headers and body and the client takes the same path (its retry decision and back-off, its
// error class, its request id). A model API response keeps an allowlist, the headers the
// provider clients act on:
//   content-type                                   how the body is parsed;
//   retry-after, retry-after-ms, x-should-retry    whether and when a client retries;
//   x-ratelimit-*, anthropic-ratelimit-*, ratelimit, ratelimit-*   rate-limit state;
//   x-request-id, request-id                       the provider's request id.
// Any other fetch is to a service whose client is the program itself, which may act on any
// header: it keeps every header except credentials and the transport's own. Never kept, by
// either: `set-cookie`, `authorization`, `www-authenticate` and the other credential headers,
// and headers that no longer describe the stored body (`content-length`, `content-encoding`:
// the body is stored decoded) or the connection (`connection`, `keep-alive`, ...).

/** Exact names kept for a model API response. */
const PROVIDER_NAMES: ReadonlySet<string> = new Set([
  'content-type',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
  'x-request-id',
  'request-id',
  'ratelimit',
  'ratelimit-policy',
]);

/** Name prefixes kept for a model API response: the rate-limit families. */
const PROVIDER_PREFIXES: readonly string[] = ['x-ratelimit-', 'anthropic-ratelimit-', 'ratelimit-'];

/** Never kept: credentials, and what describes the connection or the encoded body. */
const NEVER: ReadonlySet<string> = new Set([
  'set-cookie',
  'set-cookie2',
  'cookie',
  'authorization',
  'proxy-authorization',
  'www-authenticate',
  'proxy-authenticate',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'trailer',
  'upgrade',
  'te',
  'content-length',
  'content-encoding',
]);

/** Which rule applies: a model API's response (the allowlist), or any other fetch's. */
export type HeaderScope = 'provider' | 'fetch';

/** Whether a response header of this (lower-case) name is kept. */
export function keepsHeader(name: string, scope: HeaderScope): boolean {
  if (NEVER.has(name)) return false;
  if (scope === 'fetch') return true;
  return PROVIDER_NAMES.has(name) || PROVIDER_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * The kept headers of a response, lower-case names in the order Headers lists them (sorted), as
 * one JSON object. Repeated headers are already joined by Headers (`, `).
 */
export function keptHeaders(headers: Headers, scope: HeaderScope): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (keepsHeader(name, scope)) kept[name] = value;
  });
  return kept;
}

/**
 * Stored headers as a replay serves them: what the record holds is what was kept, so every
 * member with a string value is served (a member of another type, in a hand-made record, is not).
 */
export function servedHeaders(stored: unknown): Record<string, string> {
  const served: Record<string, string> = {};
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return served;
  for (const [name, value] of Object.entries(stored as Record<string, unknown>)) {
    if (typeof value === 'string') served[name] = value;
  }
  return served;
}
