// Environment capture: the clock, randomness, UUIDs and fetch are wrapped
// once, process-wide, the first time a run asks for capture. The wrappers are inert outside
// recorded runs (and inside model and tool calls): they call the original and record nothing,
// so code outside a run, and concurrent runs without capture, see no difference.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { OriginalDate, originalFetch } from '../../core/internal-globals.js';
import { recording } from '../../core/sdk-registry.js';
import { capturedFetch } from './fetch.js';
import { servedCall } from '../../session/serve.js';
import { captureScope, emitEnv } from './record-env.js';
import { guardHttpRequests, guardedFetch } from './placeholder-guard.js';
import { currentScope } from '../../session/context.js';
import { inCompletionOrder } from '../../session/completion-order.js';
import { answerBodyRead, bodyEnvFor } from '../spans/tool-env.js';

/** Wraps the globals (idempotent, also across copies of the SDK: core/sdk-registry.ts). */
export function installCapture(): void {
  if (recording.state.captureInstalled) return;
  recording.state.captureInstalled = true;
  installClock();
  installRandom();
  installUuid();
  // Innermost, just before the network: a replay's placeholder key never leaves the process.
  guardHttpRequests();
  if (originalFetch !== undefined) {
    globalThis.fetch = orderedFetch(capturedFetch(guardedFetch(originalFetch)));
  }
}

/** Whether the wrappers are installed. */
export function captureInstalled(): boolean {
  return recording.state.captureInstalled;
}

/**
 * One environment read: outside capture, the real value; captured, recorded as an env event
 * keyed by its kind; in a replay, the recorded value, served first-in first-out (and recorded
 * again, so the replayed run's cassette can be compared with the record's).
 */
function readEnv<T>(kind: 'now' | 'date' | 'random' | 'uuid' | 'clock', read: () => T): T {
  const body = bodyEnvFor(kind);
  if (body !== undefined) {
    // A tool body's read: kept with the tool call, answered from it when the body is replayed.
    const answer = answerBodyRead(body, kind, kind);
    const value = answer === undefined ? read() : (answer['output'] as T);
    body.reads.push({ kind, key: kind, output: value });
    return value;
  }
  const scope = captureScope(kind);
  if (scope === undefined) return read();
  const served = servedCall(scope.run, { kind, name: kind, key: () => kind, input: kind });
  const value = served === undefined ? read() : (served.event['output'] as T);
  emitEnv(scope, kind, kind, value);
  return value;
}

/**
 * In a replay, a served fetch (a model call or any other request) answers in the record's
 * completion order (session/completion-order.ts), so that concurrent calls finish, and their
 * continuations read the clock and UUIDs, in the order they did live: the agent's own, and a
 * model call made through fetch inside a `tool()` body run live (a call of its own under the
 * tool's span; the body's other reads are answered from the tool call: spans/tool-env.ts).
 */
function orderedFetch(inner: typeof fetch): typeof fetch {
  return function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const scope = currentScope();
    const gated = scope?.kind === 'run' || scope?.kind === 'tool';
    const source = gated ? scope.run.replay : undefined;
    if (source === undefined) return inner(input, init);
    return inCompletionOrder(source.order, () => inner(input, init));
  };
}

function installClock(): void {
  const realNow = OriginalDate.now.bind(OriginalDate);
  const now = (): number => readEnv('now', realNow);
  const dateNow = (): number => readEnv('date', realNow);
  // A constructor that behaves as Date in every way: same prototype (instanceof holds), same
  // statics, called without `new` it returns a string; only the argument-less forms read the
  // clock through the capture.
  function CapturedDate(this: unknown, ...args: unknown[]): unknown {
    if (new.target === undefined) return new OriginalDate(dateNow()).toString();
    const values = args.length === 0 ? [dateNow()] : args;
    return Reflect.construct(OriginalDate, values, new.target);
  }
  Object.setPrototypeOf(CapturedDate, OriginalDate);
  Object.defineProperty(CapturedDate, 'prototype', { value: OriginalDate.prototype });
  Object.defineProperty(CapturedDate, 'name', { value: 'Date' });
  Object.defineProperty(CapturedDate, 'now', { value: now, writable: true, configurable: true });
  globalThis.Date = CapturedDate as unknown as DateConstructor;

  const realPerformanceNow = performance.now.bind(performance);
  performance.now = () => readEnv('clock', realPerformanceNow);
}

function installRandom(): void {
  const realRandom = Math.random.bind(Math);
  Math.random = () => readEnv('random', realRandom);
}

function installUuid(): void {
  const wrap = (original: () => string) => () => readEnv('uuid', original);
  const web = globalThis.crypto;
  if (typeof web?.randomUUID === 'function') {
    web.randomUUID = wrap(web.randomUUID.bind(web)) as typeof web.randomUUID;
  }
  // node:crypto's randomUUID: patch the CommonJS export object, then refresh the ESM named
  // exports from it, so `import { randomUUID } from 'node:crypto'` is captured too.
  const nodeCrypto = createRequire(import.meta.url)('node:crypto') as { randomUUID: () => string };
  nodeCrypto.randomUUID = wrap(nodeCrypto.randomUUID.bind(nodeCrypto));
  syncBuiltinESMExports();
}
