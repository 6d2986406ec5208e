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
  readonly events?: readonly { name: string; timeUnixNano: string; attributes: readonly JsonKeyValue[] }[];
  readonly status?: { code?: number; message?: string };
}

/** Every span of a request, in order. */
export function spansOf(request: unknown): JsonSpan[] {
  const r = request as { resourceSpans: { scopeSpans: { spans: JsonSpan[] }[] }[] };
  return r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

/** A span's (or span event's) attributes as a plain object of plain values. */
export function attributesOf(span: { attributes: readonly JsonKeyValue[] }): Record<string, unknown> {
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
