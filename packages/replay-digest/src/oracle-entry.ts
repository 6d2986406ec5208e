// Oracle entries (docs/spec.md §4 "Oracle stream"): the non-deterministic surface of a run,
// content-addressed by its inputs. `run`, `reasoning` and unknown event types have none.
//
//   llm  → { kind: "llm",  key: sha256("llm:"  + model_id  + ":" + canonical(projected request)), output: response ?? {error} }
//   tool → { kind: "tool", key: sha256("tool:" + tool_name + ":" + canonical(projected input)),   output: output   ?? {error} }
//   env  → { kind, key, output } taken from the event as recorded
import { canonical, sha256Hex, type CanonicalMemo } from '@runback/canonical';
import { ReplayDigestError, describeValue } from './errors.js';
import { isPlainObject } from './plain.js';
import { parseKeyProjection, projectKeyInput, type KeyProjection } from './projection.js';

/** One entry of the oracle stream. */
export interface OracleEntry {
  readonly kind: string;
  readonly key: string;
  readonly output: unknown;
}

/** The replay key of a model call: sha256_hex("llm:" + modelId + ":" + canonical(projected request)). */
export function llmKey(modelId: string, request: unknown, projection?: KeyProjection, memo?: CanonicalMemo): string {
  return sha256Hex('llm:' + modelId + ':' + canonical(projectKeyInput(request, projection), memo));
}

/** The replay key of a tool call: sha256_hex("tool:" + toolName + ":" + canonical(projected input)). */
export function toolKey(toolName: string, input: unknown, projection?: KeyProjection, memo?: CanonicalMemo): string {
  return sha256Hex('tool:' + toolName + ':' + canonical(projectKeyInput(input, projection), memo));
}

/**
 * The replay key of an HTTP fetch (format-decisions, "SDK writers key env events"):
 * sha256_hex("fetch:" + METHOD + ":" + url + ":" + sha256_hex(body bytes)). The method is
 * upper-cased; no body hashes as no bytes.
 */
export function fetchKey(method: string, url: string, body?: string | Uint8Array | null): string {
  return sha256Hex('fetch:' + method.toUpperCase() + ':' + url + ':' + sha256Hex(body ?? ''));
}

/**
 * The oracle entry of one event, or null for types that have none. `memo` lets the key reuse
 * canonical texts already computed for the event chain (CanonicalMemo in @runback/canonical).
 *
 * @throws {ReplayDigestError} when an llm, tool or env event lacks what its key is made of
 * (ORACLE_MALFORMED_EVENT) or carries a malformed key_projection (ORACLE_BAD_PROJECTION).
 */
export function oracleEntryOf(event: unknown, memo?: CanonicalMemo): OracleEntry | null {
  if (!isPlainObject(event)) return null;
  switch (event['type']) {
    case 'llm': {
      const model = event['model'];
      const modelId = isPlainObject(model) ? model['model_id'] : undefined;
      if (typeof modelId !== 'string') {
        throw malformed(`expected llm event model.model_id to be a string, got ${describeValue(modelId)}`);
      }
      const key = llmKey(modelId, event['request'], parseKeyProjection(event['key_projection']), memo);
      return { kind: 'llm', key, output: event['response'] ?? { error: event['error'] } };
    }
    case 'tool': {
      const toolName = event['tool_name'];
      if (typeof toolName !== 'string') {
        throw malformed(`expected tool event tool_name to be a string, got ${describeValue(toolName)}`);
      }
      const key = toolKey(toolName, event['input'], parseKeyProjection(event['key_projection']), memo);
      return { kind: 'tool', key, output: event['output'] ?? { error: event['error'] } };
    }
    case 'env': {
      const kind = event['kind'];
      const key = event['key'];
      if (typeof kind !== 'string') throw malformed(`expected env event kind to be a string, got ${describeValue(kind)}`);
      if (typeof key !== 'string') throw malformed(`expected env event key to be a string, got ${describeValue(key)}`);
      return { kind, key, output: event['output'] };
    }
    default:
      return null;
  }
}

function malformed(message: string): ReplayDigestError {
  return new ReplayDigestError('ORACLE_MALFORMED_EVENT', message);
}
