// Oracle entries (docs/spec.md §4 "Oracle stream"): the non-deterministic surface of a run,
// content-addressed by its inputs. `run`, `reasoning` and unknown event types have none.
//
//   llm  → { kind: "llm",  key: sha256("llm:"  + model_id  + ":" + canonical(projected request)), output }
//   tool → { kind: "tool", key: sha256("tool:" + tool_name + ":" + canonical(projected input)),   output }
//   env  → { kind, key, output } taken from the event as recorded
//
// The llm / tool entry output has two readings (docs/spec.md §4.1); they differ only when the
// error and the response/output are both set, or both null/absent:
//   seed       response ?? {error}      (output ?? {error})
//   published  error truthy → {error}, else the response/output member as stored (absent stays
//              absent: the entry then has no output member)
// Writers emit the published reading; a verifier accepts either.
import { canonical, sha256Hex } from '@runback/canonical';
import { ReplayDigestError, describeValue } from './errors.js';
import { isPlainObject } from './plain.js';
import { quoted } from './quote.js';
import { parseKeyProjection, projectKeyInput, type KeyProjection } from './projection.js';

/** Which reading of an llm / tool entry's output (docs/spec.md §4.1). */
export type OutputReading = 'published' | 'seed';

/** One entry of the oracle stream. */
export interface OracleEntry {
  readonly kind: string;
  readonly key: string;
  readonly output: unknown;
}

/** The replay key of a model call: sha256_hex("llm:" + modelId + ":" + canonical(projected request)). */
export function llmKey(modelId: string, request: unknown, projection?: KeyProjection): string {
  return sha256Hex('llm:' + modelId + ':' + canonical(projectKeyInput(request, projection)));
}

/** The replay key of a tool call: sha256_hex("tool:" + toolName + ":" + canonical(projected input)). */
export function toolKey(toolName: string, input: unknown, projection?: KeyProjection): string {
  return sha256Hex('tool:' + toolName + ':' + canonical(projectKeyInput(input, projection)));
}

/**
 * The replay key of an HTTP fetch (docs/spec.md §4.4):
 * sha256_hex("fetch:" + METHOD + ":" + url + ":" + sha256_hex(body bytes)). The method is
 * upper-cased; no body hashes as no bytes.
 */
export function fetchKey(method: string, url: string, body?: string | Uint8Array | null): string {
  return sha256Hex('fetch:' + method.toUpperCase() + ':' + url + ':' + sha256Hex(body ?? ''));
}

/** What an oracle event is keyed and answered by, once its shape has been checked. */
type OracleShape =
  | {
      readonly kind: 'llm' | 'tool';
      /** "llm:" + model_id + ":" or "tool:" + tool_name + ":" */
      readonly keyPrefix: string;
      readonly inputField: 'request' | 'input';
      readonly outputField: 'response' | 'output';
      readonly projection: KeyProjection | undefined;
      /** The entry's text after its key: with an output to follow, and without one. */
      readonly kindOutput: string;
      readonly kindEnd: string;
    }
  | { readonly kind: string; readonly key: string; readonly env: true };

/** How llm and tool events are keyed: the name in the key, the keyed input, the output. */
const KEYED = {
  llm: {
    nameOf: (event: Record<string, unknown>): unknown => {
      const model = event['model'];
      return isPlainObject(model) ? model['model_id'] : undefined;
    },
    nameLabel: 'model.model_id',
    inputField: 'request',
    outputField: 'response',
    kindOutput: '","kind":"llm","output":',
    kindEnd: '","kind":"llm"}',
  },
  tool: {
    nameOf: (event: Record<string, unknown>): unknown => event['tool_name'],
    nameLabel: 'tool_name',
    inputField: 'input',
    outputField: 'output',
    kindOutput: '","kind":"tool","output":',
    kindEnd: '","kind":"tool"}',
  },
} as const;

/** Checks an event's oracle members; null for types that have no oracle entry. */
function oracleShapeOf(event: Record<string, unknown>): OracleShape | null {
  switch (event['type']) {
    case 'llm':
    case 'tool': {
      const keyed = KEYED[event['type']];
      const name = keyed.nameOf(event);
      if (typeof name !== 'string') {
        throw malformed(
          `expected ${event['type']} event ${keyed.nameLabel} to be a string, got ${describeValue(name)}`,
        );
      }
      return {
        kind: event['type'],
        keyPrefix: event['type'] + ':' + name + ':',
        inputField: keyed.inputField,
        outputField: keyed.outputField,
        projection: parseKeyProjection(event['key_projection']),
        kindOutput: keyed.kindOutput,
        kindEnd: keyed.kindEnd,
      };
    }
    case 'env': {
      const kind = event['kind'];
      const key = event['key'];
      if (typeof kind !== 'string')
        throw malformed(`expected env event kind to be a string, got ${describeValue(kind)}`);
      if (typeof key !== 'string')
        throw malformed(`expected env event key to be a string, got ${describeValue(key)}`);
      return { kind, key, env: true };
    }
    default:
      return null;
  }
}

/**
 * The oracle entry of one event, or null for types that have none. `reading` chooses how an
 * llm / tool output is read (default: the published reading, the one writers emit).
 *
 * @throws {ReplayDigestError} when an llm, tool or env event lacks what its key is made of
 * (ORACLE_MALFORMED_EVENT) or carries a malformed key_projection (ORACLE_BAD_PROJECTION).
 */
export function oracleEntryOf(
  event: unknown,
  reading: OutputReading = 'published',
): OracleEntry | null {
  if (!isPlainObject(event)) return null;
  const shape = oracleShapeOf(event);
  if (shape === null) return null;
  if ('env' in shape) return { kind: shape.kind, key: shape.key, output: event['output'] };
  const input = projectKeyInput(event[shape.inputField], shape.projection);
  const key = sha256Hex(shape.keyPrefix + canonical(input));
  const error = event['error'];
  const stored = event[shape.outputField];
  if (reading === 'seed') return { kind: shape.kind, key, output: stored ?? { error } };
  // An absent member reads as undefined, which canonical() omits: the entry has no output.
  return { kind: shape.kind, key, output: error ? { error } : stored };
}

/**
 * Canonical texts of event members that a caller already holds, so the cassette need not
 * serialize those members again. A verifier that has proven part of its JSON input to be in
 * canonical form (docs/spec.md §2) can cut a member's text straight out of it.
 */
export interface KnownMemberTexts {
  /**
   * `canonical(events[index][member])`, or undefined when not known (then it is computed).
   * The implementer vouches for every text it returns.
   */
  memberText(index: number, member: string): string | undefined;
}

/**
 * The canonical text of an event's oracle entry, `canonical({kind, key, output})`, or null for
 * types that have none: what the cassette chain hashes, written without building the entry.
 *
 * @throws {ReplayDigestError} as oracleEntryOf.
 */
export function oracleEntryText(
  event: unknown,
  reading: OutputReading = 'published',
): string | null {
  return entryText(event, undefined, -1, reading);
}

/**
 * oracleEntryText, taking the keyed input's and the output's text from `known` (for the event
 * at `index`) when it has them. A projected input is always serialized here: its text is not
 * the stored member's.
 */
export function entryText(
  event: unknown,
  known: KnownMemberTexts | undefined,
  index: number,
  reading: OutputReading = 'published',
): string | null {
  if (!isPlainObject(event)) return null;
  const shape = oracleShapeOf(event);
  if (shape === null) return null;
  // Members sort as key, kind, output; an undefined output is omitted, as canonical() does.
  if ('env' in shape) {
    const output = event['output'];
    const head = '{"key":' + quoted(shape.key) + ',"kind":' + quoted(shape.kind);
    if (output === undefined) return head + '}';
    return head + ',"output":' + textOf(output, 'output', known, index) + '}';
  }
  const input = event[shape.inputField];
  const inputText =
    shape.projection === undefined
      ? textOf(input, shape.inputField, known, index)
      : canonical(projectKeyInput(input, shape.projection));
  const output = event[shape.outputField];
  const error = event['error'];
  let outputText: string | undefined;
  if (reading === 'seed') {
    outputText =
      output === null || output === undefined
        ? canonical({ error })
        : textOf(output, shape.outputField, known, index);
  } else if (error) {
    outputText = canonical({ error });
  } else {
    // As stored; an absent (or undefined) member is omitted, as canonical() omits it.
    outputText = output === undefined ? undefined : textOf(output, shape.outputField, known, index);
  }
  const key = sha256Hex(shape.keyPrefix + inputText);
  // '{"key":"…","kind":"…"' then ',"output":…' when there is one, and '}': the kind's part is
  // one constant, so that the text the cassette hashes is made of fewer pieces.
  return outputText === undefined
    ? '{"key":"' + key + shape.kindEnd
    : '{"key":"' + key + shape.kindOutput + outputText + '}';
}

/** canonical(value) for the event member `member`, from `known` when it has it. */
function textOf(
  value: unknown,
  member: string,
  known: KnownMemberTexts | undefined,
  index: number,
): string {
  return known?.memberText(index, member) ?? canonical(value);
}

function malformed(message: string): ReplayDigestError {
  return new ReplayDigestError('ORACLE_MALFORMED_EVENT', message);
}
