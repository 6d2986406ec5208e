// AI SDK values as JSON data. Call options, results and stream parts hold a few things JSON has
// no form for: Dates (response timestamps), bytes (file parts), URLs (prompt files) and Errors
// (stream error parts). They are converted here, the same way every time, so that a replay
// engine knows what to turn back: an ISO string where a Date stood, base64 where bytes stood
// (which the AI SDK's file types accept as they are), `{name, message}` where an Error stood.
// Everything else follows JSON.stringify: undefined members and functions are left out.
import { RunbackError } from '../../core/errors.js';

/** A JSON copy of `value` with Dates, bytes, URLs and Errors converted. `label` names it in errors. */
export function toJson(value: unknown, label: string): unknown {
  return convert(value, label, new Set());
}

/** {@link toJson} for a value known to be a plain object. */
export function toJsonObject(value: object, label: string): Record<string, unknown> {
  return convert(value, label, new Set()) as Record<string, unknown>;
}

function convert(value: unknown, label: string, ancestors: Set<object>): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  // Numbers pass through unchanged, NaN included: the recorder refuses non-finite numbers with
  // a clear error (docs/spec.md §5), which a silent null here would hide.
  if (typeof value !== 'object' || value === null) return value;
  if (ArrayBuffer.isView(value)) {
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  }
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('base64');
  // Only name and message: the AI SDK's errors also hold the request body and the response
  // headers, which repeat the request and can carry account details.
  if (value instanceof Error) return { name: value.name, message: value.message };
  // Date and URL convert themselves (an invalid Date to null), as JSON.stringify would.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return convert(toJSON.call(value), label, ancestors);
  if (ancestors.has(value)) {
    throw new RunbackError(
      'VALUE_NOT_JSON',
      `${label}: expected JSON data, got a circular reference`,
    );
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item: unknown) => convert(item, label, ancestors) ?? null);
    }
    // A null-prototype object keeps an own `__proto__` member as data (docs/spec.md §2).
    const out = Object.create(null) as Record<string, unknown>;
    for (const [name, item] of Object.entries(value)) {
      const converted = convert(item, label, ancestors);
      if (converted !== undefined) out[name] = converted;
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
