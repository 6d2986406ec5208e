// Instrumenting a provider client in place. The openai (>= 5) and @anthropic-ai/sdk clients
// keep the fetch they send with in an instance member, `fetch`, read at every request and
// copied by `withOptions()`; replacing it with a recording fetch records every call the
// client makes, streamed or not, helpers included.
import { argError } from '../../core/errors.js';
import { runbackFetch, type FetchFunction } from './recording-fetch.js';

/** Replaces `client.fetch` with a recording fetch around it (idempotent); returns the client. */
export function instrumentClientFetch<C>(client: C, clientName: string): C {
  if (typeof client !== 'object' || client === null) {
    throw argError('client', `an ${clientName} client`, client);
  }
  const holder = client as unknown as { fetch?: unknown };
  if (typeof holder.fetch !== 'function') {
    throw argError('client.fetch', `a function, as ${clientName} clients have`, holder.fetch);
  }
  holder.fetch = runbackFetch(holder.fetch as FetchFunction);
  return client;
}
