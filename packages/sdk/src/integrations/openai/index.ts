// @runback/sdk/openai: OpenAI calls recorded as llm events. `openai` is an optional peer, so
// this module imports only its types: nothing of it is loaded at runtime.
import type { OpenAI } from 'openai';
import { instrumentClientFetch } from '../../hooks/providers/index.js';

export { runbackFetch, type FetchFunction } from '../../hooks/providers/index.js';

/**
 * Records the calls `client` makes to chat completions and responses, streamed or not, as llm
 * events of the run they are made in; outside a run the client behaves exactly as before.
 * Instruments the client in place and returns it; calling it again changes nothing. Clients
 * derived with `client.withOptions()` afterwards are instrumented too.
 *
 *   const client = instrumentOpenAI(new OpenAI());
 */
export function instrumentOpenAI<C extends OpenAI>(client: C): C {
  return instrumentClientFetch(client, 'OpenAI');
}
