// The last line of defence for placeholder credentials (session/placeholder-credentials.ts): a
// request that would leave the process carrying one is refused before a byte is sent, whatever
// the replay mode (a live-on-miss call, a client outside the run, a request the record does not
// hold). Covers fetch and node:http(s) requests, the transports model clients use.
import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';
import { RunbackError } from '../../core/errors.js';
import {
  PLACEHOLDER_CREDENTIAL,
  carriesPlaceholder,
} from '../../session/placeholder-credentials.js';

/** The error a request carrying a placeholder credential is refused with. */
export function placeholderRefusal(where: string, target: string): RunbackError {
  return new RunbackError(
    'REPLAY_PLACEHOLDER_CREDENTIAL',
    `refusing to send ${target}: expected no placeholder credential in a request that leaves the process, got "${PLACEHOLDER_CREDENTIAL}" in ${where} (a replay's placeholder keys never reach the network; set the real key to send this call live)`,
  );
}

/**
 * Where a fetch's arguments carry a placeholder credential (a header name or `the URL`), or
 * undefined. Reads the URL and headers only: the body, possibly a stream, is left untouched.
 */
function placeholderIn(input: RequestInfo | URL, init?: RequestInit): string | undefined {
  const url = input instanceof Request ? input.url : String(input);
  if (carriesPlaceholder(url)) return 'the URL';
  const lists: Headers[] = [];
  if (input instanceof Request) lists.push(input.headers);
  if (init?.headers !== undefined) {
    try {
      lists.push(new Headers(init.headers));
    } catch {
      // fetch itself reports malformed headers
    }
  }
  for (const headers of lists) {
    for (const [name, value] of headers) {
      if (carriesPlaceholder(value)) return `header ${name}`;
    }
  }
  return undefined;
}

/**
 * Wraps a fetch so that a request carrying a placeholder credential is refused. Any other call
 * goes to `original` with its own arguments, untouched (runtime-specific options included).
 */
export function guardedFetch(original: typeof fetch): typeof fetch {
  return function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const where = placeholderIn(input, init);
    if (where !== undefined) {
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      const url = input instanceof Request ? input.url : String(input);
      return Promise.reject(placeholderRefusal(where, `${method} ${url}`));
    }
    return original(input, init);
  };
}

let httpGuarded = false;

/**
 * Makes node:http(s) refuse to send request headers that carry a placeholder credential
 * (idempotent). The check sits where Node serialises a request's head (`_storeHeader`, reached
 * by headers given as an object, as an array, or set later), and on `setHeader` where a Node
 * without that hook exposes only the public API.
 */
export function guardHttpRequests(): void {
  if (httpGuarded) return;
  httpGuarded = true;
  const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;
  const proto = http.ClientRequest.prototype as unknown as Record<string, unknown>;
  const storeHeader = proto['_storeHeader'];
  if (typeof storeHeader === 'function') {
    proto['_storeHeader'] = function (
      this: { host?: string },
      firstLine: string,
      headers: unknown,
    ) {
      if (carriesPlaceholder(firstLine) || carriesPlaceholder(JSON.stringify(headers) ?? '')) {
        throw placeholderRefusal('its headers', `a node:http request to ${String(this.host)}`);
      }
      return (storeHeader as (this: unknown, ...args: unknown[]) => unknown).call(
        this,
        firstLine,
        headers,
      );
    };
    return;
  }
  const setHeader = proto['setHeader'] as (this: unknown, ...args: unknown[]) => unknown;
  proto['setHeader'] = function (this: { host?: string }, name: string, value: unknown) {
    const values: readonly unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => carriesPlaceholder(String(v)))) {
      throw placeholderRefusal(`header ${name}`, `a node:http request to ${String(this.host)}`);
    }
    return setHeader.call(this, name, value);
  };
}
