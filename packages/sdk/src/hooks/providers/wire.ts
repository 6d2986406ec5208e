// Recording at the wire for a client with a custom fetch (a gateway that rewrites the model,
// adds `user`, signs the request, changes the URL). The custom fetch runs first, inside a scope
// marked `wire` (session/context.ts); the model call it sends through the global fetch is
// recorded there, as it went over the wire, and in a replay it is answered there, so the custom
// fetch's request-side code still runs. The global fetch is hooked for this once, the first
// time a custom fetch is wrapped; environment capture (env/fetch.ts) honours the same marker
// when it is installed.
import { currentScope } from '../../session/context.js';
import { interceptProviderCall } from './intercept.js';

/** The global fetch as it was when the SDK loaded: the runtime's own. */
const NATIVE_FETCH: unknown = globalThis.fetch;

/** Marks a global fetch that honours the wire marker. */
const WIRE_HOOK = Symbol.for('runback.wireFetch');

/**
 * Whether `fn` is the runtime's fetch (or the global fetch as it is now): a client holding it
 * sends its requests as they are, and they are recorded where the client hands them over.
 */
export function isGlobalFetch(fn: unknown): boolean {
  return fn === NATIVE_FETCH || fn === globalThis.fetch;
}

/** Hooks the global fetch so that model calls made inside a wire scope are recorded (idempotent). */
export function hookGlobalFetch(): void {
  const current = globalThis.fetch as typeof fetch & { [WIRE_HOOK]?: true };
  if (typeof current !== 'function' || current[WIRE_HOOK] === true) return;
  const inner = current;
  const hooked = function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const scope = currentScope();
    const wire = scope?.kind === 'run' ? scope.wire : undefined;
    if (wire === undefined) return inner(input, init);
    let request: Request;
    try {
      request = new Request(input, init);
    } catch {
      return inner(input, init);
    }
    const handled = interceptProviderCall(request, (req) => inner(req));
    if (handled === undefined) return inner(input, init);
    wire.seen = true;
    return handled;
  };
  Object.defineProperty(hooked, WIRE_HOOK, { value: true });
  globalThis.fetch = hooked;
}
