// The steps of a record, as the semantic diff sees them: every event but the run's own, in seq
// order, reduced to what it was asked (input) and what it answered (output). Ids, span links,
// timestamps, latency, `_hash`, metadata and digests are not part of a step: they differ between
// two runs of the same work.
import { oracleEntryOf } from '@runback/replay-digest';
import type { Alignable } from './align.js';

/** The name a call is grouped under: the model id, the tool name, or the env kind. */
export function callName(event: Readonly<Record<string, unknown>>): string {
  switch (event['type']) {
    case 'llm':
      return textOf((event['model'] as { model_id?: unknown } | undefined)?.model_id);
    case 'tool':
      return textOf(event['tool_name']);
    default:
      return textOf(event['kind']);
  }
}

/**
 * A member as text for names and keys: a string as it is, a number or boolean as JavaScript
 * prints it, nothing as '', anything else (a malformed record's object) as its JSON, so two
 * different objects never share a name.
 */
function textOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return '';
    default:
      return value === null ? '' : (JSON.stringify(value) ?? '');
  }
}

/** One step of a run. */
export interface Step extends Alignable {
  /** The event's position in the record's `events`. */
  readonly index: number;
  readonly seq: number;
  readonly type: string;
  /** Tool name, model id, env kind or reasoning label. */
  readonly name: string;
  readonly input: unknown;
  readonly output: unknown;
  /** Member names ignored at any depth when diffing this step (provider-generated ids, times). */
  readonly volatile: ReadonlySet<string>;
  readonly usage?: { readonly input: number; readonly output: number; readonly total: number };
  readonly latencyMs?: number;
}

/** Env kinds whose values are times or fresh ids: equal identity is all that can be compared. */
const VOLATILE_ENV = new Set(['now', 'date', 'clock', 'uuid']);

/** Names provider APIs fill with fresh ids and times on every call. */
const PROVIDER_VOLATILE: ReadonlySet<string> = new Set([
  'id',
  'tool_call_id',
  'created',
  'created_at',
  'system_fingerprint',
]);
const NOTHING: ReadonlySet<string> = new Set();
/** HTTP response headers that change on every request. */
const HTTP_VOLATILE: ReadonlySet<string> = new Set([
  'date',
  'age',
  'expires',
  'x-request-id',
  'request-id',
  'cf-ray',
  'etag',
  'last-modified',
  'set-cookie',
]);

type Event = Record<string, unknown>;

/** The steps of `events`, in seq order. */
export function stepsOf(events: readonly unknown[]): Step[] {
  const steps: Step[] = [];
  events.forEach((raw, index) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
    const event = raw as Event;
    if (event['type'] === 'run') return;
    steps.push(stepOf(event, index));
  });
  return steps.sort((x, y) => x.seq - y.seq || x.index - y.index);
}

function keyOf(event: Event): string {
  try {
    return oracleEntryOf(event)?.key ?? '';
  } catch {
    return '';
  }
}

function stepOf(event: Event, index: number): Step {
  const type = String(event['type']);
  const seq = typeof event['seq'] === 'number' ? event['seq'] : index;
  const base = (name: string, key: string) => ({
    index,
    seq,
    type,
    name,
    identity: `${type}\u0000${name}\u0000${key}`,
    family: `${type}\u0000${name}`,
  });
  switch (type) {
    case 'llm': {
      const model = (event['model'] ?? {}) as Record<string, unknown>;
      const usage = (event['usage'] ?? {}) as Record<string, unknown>;
      return {
        ...base(callName(event), keyOf(event)),
        input: { model, request: event['request'] },
        output: event['response'] ?? { error: withoutStack(event['error']) },
        volatile: PROVIDER_VOLATILE,
        usage: {
          input: num(usage['input_tokens']),
          output: num(usage['output_tokens']),
          total: num(usage['total_tokens']),
        },
        latencyMs: num(event['latency_ms']),
      };
    }
    case 'tool':
      return {
        ...base(callName(event), keyOf(event)),
        input: event['input'],
        output: event['output'] ?? { error: withoutStack(event['error']) },
        volatile: NOTHING,
        latencyMs: num(event['latency_ms']),
      };
    case 'env': {
      const kind = callName(event);
      return {
        ...base(kind, kind === 'fetch' || kind === 'http' ? textOf(event['key']) : kind),
        input: event['input'] ?? event['key'],
        output: VOLATILE_ENV.has(kind) ? null : event['output'],
        volatile: kind === 'fetch' || kind === 'http' ? HTTP_VOLATILE : NOTHING,
      };
    }
    case 'reasoning':
      return {
        ...base(textOf(event['label']), textOf(event['text'])),
        input: null,
        output: event['text'],
        volatile: NOTHING,
      };
    default: {
      // An unknown type: everything but the base members is its content.
      const content: Event = {};
      for (const [name, value] of Object.entries(event)) if (!BASE.has(name)) content[name] = value;
      return {
        ...base('', JSON.stringify(content)),
        input: content,
        output: null,
        volatile: NOTHING,
      };
    }
  }
}

const BASE = new Set([
  'schema_version',
  'run_id',
  'span_id',
  'parent_span_id',
  'seq',
  'ts_start',
  'ts_end',
  'type',
  '_hash',
  'metadata',
]);

/**
 * A stored error without its stack: a stack names files and lines, not behaviour, so two runs
 * of the same work differ there.
 */
export function withoutStack(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error ?? null;
  const { stack: _stack, ...rest } = error as Record<string, unknown>;
  return rest;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
