// Reading OTLP/JSON in tests, independently of the package's reader.

export interface JsonKeyValue {
  readonly key: string;
  readonly value: Record<string, unknown>;
}
export interface JsonSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: readonly JsonKeyValue[];
  readonly events?: readonly {
    name: string;
    timeUnixNano: string;
    attributes: readonly JsonKeyValue[];
  }[];
  readonly status?: { code?: number; message?: string };
}

/** Every span of a request, in order. */
export function spansOf(request: unknown): JsonSpan[] {
  const r = request as { resourceSpans: { scopeSpans: { spans: JsonSpan[] }[] }[] };
  return r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

/** A span's (or span event's) attributes as a plain object of plain values. */
export function attributesOf(span: {
  attributes: readonly JsonKeyValue[];
}): Record<string, unknown> {
  return Object.fromEntries(span.attributes.map((kv) => [kv.key, plain(kv.value)]));
}

function plain(value: Record<string, unknown>): unknown {
  if ('stringValue' in value) return value['stringValue'];
  if ('boolValue' in value) return value['boolValue'];
  if ('intValue' in value) return Number(value['intValue']);
  if ('doubleValue' in value) return value['doubleValue'];
  if ('arrayValue' in value) {
    const values = (value['arrayValue'] as { values?: Record<string, unknown>[] }).values ?? [];
    return values.map(plain);
  }
  return value;
}

/** The value at a path of member names and array indexes, or undefined. */
export function at(value: unknown, ...path: readonly (string | number)[]): unknown {
  let current = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** The array at a path (an empty one when there is none). */
export function listAt(value: unknown, ...path: readonly (string | number)[]): unknown[] {
  const found = at(value, ...path);
  return Array.isArray(found) ? (found as unknown[]) : [];
}

/** A JSON document's spans, editable: resourceSpans[r].scopeSpans[s].spans[i]. */
export function spanAt(request: unknown, r: number, s: number, i: number): Record<string, unknown> {
  return at(request, 'resourceSpans', r, 'scopeSpans', s, 'spans', i) as Record<string, unknown>;
}
