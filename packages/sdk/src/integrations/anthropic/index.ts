// @runback/sdk/anthropic: Anthropic calls recorded as llm events. `@anthropic-ai/sdk` is an
// optional peer, so this module imports only its types: nothing of it is loaded at runtime.
import type { Anthropic } from '@anthropic-ai/sdk';
import { instrumentClientFetch } from '../../hooks/providers/index.js';

export { runbackFetch, type FetchFunction } from '../../hooks/providers/index.js';

/**
 * Records the calls `client` makes to messages (`messages.create`, with or without
 * `stream: true`, and the `messages.stream()` helper) as llm events of the run they are made
 * in; outside a run the client behaves exactly as before. Instruments the client in place and
 * returns it; calling it again changes nothing.
 *
 *   const client = instrumentAnthropic(new Anthropic());
 */
export function instrumentAnthropic<C extends Anthropic>(client: C): C {
  return instrumentClientFetch(client, 'Anthropic');
}
