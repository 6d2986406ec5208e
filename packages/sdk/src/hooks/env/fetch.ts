// fetch capture. A call to a known model API becomes an `llm` event (providers/); any other
// request becomes a `fetch` env event keyed as docs/spec.md §4.4 says:
//   sha256_hex("fetch:" + METHOD + ":" + url + ":" + sha256_hex(body bytes))
// The response body is read whole, recorded with its status and the headers a program acts on
// (an allowlist, never credentials: providers/http-headers.ts), and handed back as a fresh
// Response with the same status, headers and bytes.
import { fetchKey } from '@runback/replay-digest';
import { isoNow } from '../../core/internal-globals.js';
import { interceptProviderCall } from '../providers/index.js';
import { servedHeaders } from '../providers/http-headers.js';
import { currentScope, runInScope } from '../../session/context.js';
import { answerBodyRead, bodyEnvFor, type BodyEnv } from '../spans/tool-env.js';
import { captureScope, emitEnv } from './record-env.js';
import { keyedInput, replayedError, servedCall } from '../../session/serve.js';
import { bodyOf, bytesOf, rebuildResponse, responseRecord, requestBodyBytes } from './http-body.js';

/** A recorded fetch output: a response, or the network error the request ended in. */
type RecordedFetchOutput =
  | {
      readonly status: number;
      readonly status_text: string;
      readonly headers: Record<string, string>;
      readonly body: { text: string } | { base64: string };
    }
  | { readonly error: unknown };

/** Wraps a fetch implementation with capture. */
export function capturedFetch(original: typeof fetch): typeof fetch {
  return async function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const scope = captureScope('fetch');
    const providers = captureScope('providers');
    const wire = wireCall();
    const inBody = scope === undefined ? bodyEnvFor('fetch') : undefined;
    if (
      scope === undefined &&
      providers === undefined &&
      wire === undefined &&
      inBody === undefined
    ) {
      return quiet(() => original(input, init));
    }
    const request = new Request(input, init);
    const next = (req: Request) => quiet(() => original(req));
    if (providers !== undefined || wire !== undefined) {
      const handled = interceptProviderCall(request, next);
      if (handled !== undefined) {
        if (wire !== undefined) wire.seen = true;
        return handled;
      }
    }
    if (inBody !== undefined) return bodyFetch(inBody, request, next);
    if (scope === undefined) return next(request);

    const body = await requestBodyBytes(request);
    const key = fetchKey(request.method, request.url, body);
    const seq = scope.run.beginCall();
    const tsStart = isoNow();
    // What was asked, for readers and for replay's request diffs (the key covers it too).
    const extra = {
      input: {
        ...(body.length === 0 ? {} : { body: bodyOf(body) }),
        method: request.method,
        url: request.url,
      },
    };
    let served;
    try {
      served = servedCall(scope.run, {
        kind: 'fetch',
        name: 'fetch',
        key: () => key,
        input: keyedInput(scope.run, extra.input),
      });
    } catch (err) {
      // A replay with no recorded answer: the failed request is part of the replayed run.
      emitEnv(scope, 'fetch', key, { error: networkError(err) }, { callSeq: seq, tsStart, extra });
      throw err;
    }
    if (served !== undefined) {
      // A replay: the recorded response (or network failure), without touching the network.
      const output = served.event['output'] as RecordedFetchOutput;
      emitEnv(scope, 'fetch', key, output, { callSeq: seq, tsStart, extra });
      return replayedResponse(request.url, output);
    }
    const { output, replacement } = await liveResponse(request, next, (err) =>
      emitEnv(scope, 'fetch', key, { error: networkError(err) }, { callSeq: seq, tsStart, extra }),
    );
    emitEnv(scope, 'fetch', key, output, { callSeq: seq, tsStart, extra });
    return replacement;
  };
}

/**
 * A fetch a `tool()` body makes: kept with the tool call (its event's `body_env`), not as an env
 * event, and in a replay that runs the body answered from the served tool's own recorded reads
 * (hooks/spans/tool-env.ts).
 */
async function bodyFetch(
  env: BodyEnv,
  request: Request,
  next: (req: Request) => Promise<Response>,
): Promise<Response> {
  const body = await requestBodyBytes(request);
  const key = fetchKey(request.method, request.url, body);
  const input = {
    ...(body.length === 0 ? {} : { body: bodyOf(body) }),
    method: request.method,
    url: request.url,
  };
  const keep = (output: unknown) => env.reads.push({ kind: 'fetch', key, input, output });
  let answer;
  try {
    answer = answerBodyRead(env, 'fetch', key, `${request.method} ${request.url}`);
  } catch (err) {
    keep({ error: networkError(err) });
    throw err;
  }
  if (answer !== undefined) {
    const output = answer['output'] as RecordedFetchOutput;
    keep(output);
    return replayedResponse(request.url, output);
  }
  const recorded = await liveResponse(request, next, (err) => keep({ error: networkError(err) }));
  keep(recorded.output);
  return recorded.replacement;
}

/**
 * The response a replay hands back for a recorded fetch output: the recorded response rebuilt,
 * or the recorded network failure thrown as fetch throws it.
 */
function replayedResponse(url: string, output: RecordedFetchOutput): Response {
  if ('error' in output)
    throw new TypeError('fetch failed', { cause: replayedError(output.error) });
  return rebuildResponse(
    url,
    output.status,
    output.status_text,
    servedHeaders(output.headers),
    bytesOf(output.body),
  );
}

/**
 * Sends the request and reads its response whole. A network failure, or a body that cannot be
 * read (the connection dropped mid-body), is a failed request: `failed` records it before the
 * error is rethrown.
 */
async function liveResponse(
  request: Request,
  next: (req: Request) => Promise<Response>,
  failed: (err: unknown) => void,
): Promise<Awaited<ReturnType<typeof responseRecord>>> {
  let response: Response;
  try {
    response = await next(request);
  } catch (err) {
    failed(err);
    throw err;
  }
  try {
    return await quiet(() => responseRecord(response));
  } catch (err) {
    failed(err);
    throw err;
  }
}

/**
 * The marker of an instrumented client's custom fetch running now (session/context.ts), when
 * its model calls are to be recorded here, at the wire.
 */
function wireCall(): { seen: boolean } | undefined {
  const scope = currentScope();
  return scope?.kind === 'run' ? scope.wire : undefined;
}

/**
 * Runs the runtime's side of a fetch outside the run's capture. The runtime reads the clock
 * while it fetches (undici times the end of every response body, in callbacks that inherit the
 * caller's async context); recorded, those reads would add `now` events the agent never made.
 */
function quiet<T>(fn: () => T): T {
  const scope = currentScope();
  return scope === undefined || (scope.kind !== 'run' && scope.kind !== 'tool')
    ? fn()
    : runInScope({ ...scope, kind: 'env' }, fn);
}

function networkError(err: unknown): { name: string; message: string } {
  return err instanceof Error
    ? { name: err.name, message: err.message }
    : { name: 'Error', message: String(err) };
}
