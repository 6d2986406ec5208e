// Failures of a model call as the llm event stores them (`error {name, message}`). A provider's
// own error type names the failure (`invalid_request_error`, `overloaded_error`); runback's own
// findings about a call are named by stable codes.
import type { EventError } from '../../core/events.js';
import { isRecord, parseJsonOr, recordOf, stringOrNull } from './json.js';

/** Failures runback itself finds in a provider call. */
export type ProviderCallErrorCode =
  /** The consumer stopped reading a streamed response before it ended. */
  | 'PROVIDER_STREAM_CANCELLED'
  /** A successful, non-streamed response whose body is not JSON. */
  | 'PROVIDER_RESPONSE_NOT_JSON';

/**
 * An Error to hand to `span.fail`: named, and without a stack, since it describes the
 * provider's answer rather than a place in runback's code.
 */
export function errorForSpan(error: EventError): Error {
  const recorded = new Error(error.message);
  recorded.name = error.name;
  delete recorded.stack;
  return recorded;
}

/** A provider error object (`{type?, code?, message?}`) as a stored error. */
export function providerErrorOf(value: unknown, fallbackMessage: string): EventError {
  const error = recordOf(value);
  return {
    name: stringOrNull(error['type']) ?? stringOrNull(error['code']) ?? 'APIError',
    message: stringOrNull(error['message']) ?? fallbackMessage,
  };
}

/**
 * An HTTP error response: the stored error, from the provider's error JSON (OpenAI's
 * `{error: {message, type, code}}`, Anthropic's `{type: "error", error: {type, message}}`),
 * and the body itself (parsed JSON, or the text when it is not JSON) for a replay to serve.
 */
export function httpFailure(status: number, text: string): { error: EventError; body: unknown } {
  const body = parseJsonOr(text, text);
  const root = recordOf(body);
  const inner = isRecord(root['error']) ? root['error'] : { message: root['message'] };
  const excerpt = text.trim().slice(0, 200);
  return {
    error: providerErrorOf(inner, excerpt === '' ? `HTTP ${status}` : `HTTP ${status}: ${excerpt}`),
    body,
  };
}

/** A failure runback found in a call, named by its code. */
export function findingError(code: ProviderCallErrorCode, message: string): Error {
  return errorForSpan({ name: code, message });
}
