// The options of runbackMiddleware, checked when the middleware is made, so that a mistake
// fails at start-up rather than at the first model call of a run.
import { parseKeyProjection } from '@runback/replay-digest';
import { argError } from '../../core/errors.js';
import type { KeyProjectionSpec } from '../../core/events.js';

/** How the AI SDK middleware records model calls. */
export interface RunbackMiddlewareOptions {
  /**
   * Members of the request left out of the replay key, e.g. `{ drop: ['params.seed'] }`
   * (docs/spec.md §4.2). The stored request is unchanged.
   */
  readonly keyProjection?: KeyProjectionSpec;
  /** The provider name stored in `model.provider` (default: the model's own, e.g. `openai.chat`). */
  readonly provider?: string;
}

/** Checks the options; throws labelled TypeErrors (code ARG_INVALID). */
export function checkMiddlewareOptions(options: unknown): RunbackMiddlewareOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw argError('options', 'an object', options);
  }
  const { provider, keyProjection } = options as Record<string, unknown>;
  if (provider !== undefined && (typeof provider !== 'string' || provider === '')) {
    throw argError('options.provider', 'a non-empty string', provider);
  }
  if (keyProjection !== undefined && !isKeyProjection(keyProjection)) {
    throw argError('options.keyProjection', '{ keep?: string[], drop?: string[] }', keyProjection);
  }
  return options as RunbackMiddlewareOptions;
}

/** The check the verifier applies to a stored key_projection (docs/spec.md §4.2). */
function isKeyProjection(value: unknown): boolean {
  if (value === null) return false;
  try {
    parseKeyProjection(value);
    return true;
  } catch {
    return false;
  }
}
