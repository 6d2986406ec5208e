// Reading an OTLP/JSON ExportTraceServiceRequest (or a file of several, one per line, as the
// OpenTelemetry Collector's file exporter writes them) into plain spans. OTLP/JSON is the
// protobuf JSON mapping with two twists the OTLP specification makes: trace and span ids are
// hex, not base64, and 64-bit integers may be strings or numbers. Field names may be
// lowerCamelCase or the .proto's snake_case (both are valid protobuf JSON). Every member is
// type-checked; anything unexpected is refused with the path of the member.
import { readJsonStrict } from '@runback/verify';
import { describe, OtlpError } from '../errors.js';
import { isRecord } from '../json-text.js';

/** An attribute value as JSON data: AnyValue decoded. */
export type AttributeValue =
  | string
  | number
  | boolean
  | null
  | readonly AttributeValue[]
  | { readonly [key: string]: AttributeValue };

/** One span event (OTLP Span.Event). */
export interface OtlpSpanEvent {
  readonly name: string;
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly attributes: ReadonlyMap<string, AttributeValue>;
}

/** One span, as the importer uses it. */
export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly name: string;
  readonly kind: number;
  /** Milliseconds since the epoch (nanoseconds truncated). */
  readonly start: number;
  readonly end: number;
  readonly attributes: ReadonlyMap<string, AttributeValue>;
  readonly events: readonly OtlpSpanEvent[];
  /** 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly resource: ReadonlyMap<string, AttributeValue>;
  readonly scope: string;
  /** Position in the document (ties in time are broken by it). */
  readonly order: number;
}

/** Limits on what one import reads. */
export interface ReadLimits {
  /** Bytes of input; default 64 MiB. */
  readonly maxBytes?: number;
  /** Spans in the document; default 100,000. */
  readonly maxSpans?: number;
}

export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_SPANS = 100_000;

const HEX_TRACE = /^[0-9a-f]{32}$/i;
const HEX_SPAN = /^[0-9a-f]{16}$/i;
const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS_CODES = ['UNSET', 'OK', 'ERROR'];

/** Reads OTLP/JSON bytes or text into spans, in document order. */
export function readOtlpSpans(input: Uint8Array | string, limits: ReadLimits = {}): OtlpSpan[] {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > maxBytes) {
    throw new OtlpError(
      'OTLP_TOO_LARGE',
      `expected at most ${maxBytes} bytes of OTLP/JSON, got ${size}`,
    );
  }
  const documents = splitDocuments(input);
  const reader = new SpanReader(limits.maxSpans ?? DEFAULT_MAX_SPANS);
  documents.forEach((doc, i) =>
    reader.readRequest(doc, documents.length === 1 ? '' : `line ${i + 1}: `),
  );
  return reader.spans;
}

/** One JSON document, or JSON Lines (one request per line). */
function splitDocuments(input: Uint8Array | string): unknown[] {
  const whole = readJsonStrict(input);
  if (whole.ok) return [whole.value];
  const text = typeof input === 'string' ? input : decodeLoose(input);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > 1 && whole.error.code === 'JSON_SYNTAX') {
    const values: unknown[] = [];
    for (const [i, line] of lines.entries()) {
      const parsed = readJsonStrict(line);
      if (!parsed.ok) {
        throw new OtlpError(
          'OTLP_NOT_JSON',
          `line ${i + 1}: expected JSON, got ${parsed.error.code}: ${parsed.error.message}`,
        );
      }
      values.push(parsed.value);
    }
    return values;
  }
  throw new OtlpError(
    'OTLP_NOT_JSON',
    `expected OTLP/JSON, got ${whole.error.code}: ${whole.error.message}`,
  );
}

function decodeLoose(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

class SpanReader {
  readonly spans: OtlpSpan[] = [];
  constructor(private readonly maxSpans: number) {}

  readRequest(doc: unknown, prefix: string): void {
    if (!isRecord(doc)) bad(`${prefix}the document`, 'an ExportTraceServiceRequest object', doc);
    const resourceSpans = member(doc, 'resourceSpans', 'resource_spans');
    if (resourceSpans === undefined) {
      badText(
        `${prefix}the document`,
        'an object with resourceSpans (OTLP/JSON traces)',
        Object.keys(doc).length === 0
          ? 'an empty object'
          : `members ${Object.keys(doc).slice(0, 5).join(', ')}`,
      );
    }
    arrayAt(resourceSpans, `${prefix}resourceSpans`).forEach((rs, i) =>
      this.readResourceSpans(rs, `${prefix}resourceSpans[${i}]`),
    );
  }

  private readResourceSpans(rs: unknown, at: string): void {
    const o = objectAt(rs, at);
    const resource = member(o, 'resource');
    const resourceAttrs =
      resource === undefined || resource === null
        ? new Map<string, AttributeValue>()
        : attributesAt(
            member(objectAt(resource, `${at}.resource`), 'attributes'),
            `${at}.resource.attributes`,
          );
    const scopeSpans =
      member(o, 'scopeSpans', 'scope_spans') ??
      member(o, 'instrumentationLibrarySpans', 'instrumentation_library_spans');
    arrayAt(scopeSpans ?? [], `${at}.scopeSpans`).forEach((ss, j) => {
      const sat = `${at}.scopeSpans[${j}]`;
      const so = objectAt(ss, sat);
      const scope =
        member(so, 'scope') ?? member(so, 'instrumentationLibrary', 'instrumentation_library');
      const scopeName =
        scope === undefined || scope === null
          ? ''
          : optionalString(member(objectAt(scope, `${sat}.scope`), 'name'), `${sat}.scope.name`);
      arrayAt(member(so, 'spans') ?? [], `${sat}.spans`).forEach((span, k) =>
        this.readSpan(span, `${sat}.spans[${k}]`, resourceAttrs, scopeName),
      );
    });
  }

  private readSpan(
    span: unknown,
    at: string,
    resource: ReadonlyMap<string, AttributeValue>,
    scope: string,
  ): void {
    if (this.spans.length >= this.maxSpans) {
      throw new OtlpError(
        'OTLP_TOO_LARGE',
        `expected at most ${this.maxSpans} spans, got more (at ${at})`,
      );
    }
    const o = objectAt(span, at);
    const traceId = idAt(
      member(o, 'traceId', 'trace_id'),
      HEX_TRACE,
      `${at}.traceId`,
      '32 hex digits',
    );
    const spanId = idAt(member(o, 'spanId', 'span_id'), HEX_SPAN, `${at}.spanId`, '16 hex digits');
    const parentRaw = member(o, 'parentSpanId', 'parent_span_id');
    const parentSpanId =
      parentRaw === undefined || parentRaw === null || parentRaw === ''
        ? null
        : idAt(parentRaw, HEX_SPAN, `${at}.parentSpanId`, '16 hex digits or ""');
    const start = nanosAt(
      member(o, 'startTimeUnixNano', 'start_time_unix_nano'),
      `${at}.startTimeUnixNano`,
    );
    const endRaw = member(o, 'endTimeUnixNano', 'end_time_unix_nano');
    const end = endRaw === undefined ? start : nanosAt(endRaw, `${at}.endTimeUnixNano`);
    if (end < start) bad(`${at}.endTimeUnixNano`, 'no earlier than startTimeUnixNano', endRaw);
    const status = member(o, 'status');
    let statusCode = 0;
    let statusMessage = '';
    if (status !== undefined && status !== null) {
      const so = objectAt(status, `${at}.status`);
      statusCode = enumAt(member(so, 'code'), STATUS_CODES, 'STATUS_CODE_', `${at}.status.code`);
      statusMessage = optionalString(member(so, 'message'), `${at}.status.message`);
    }
    const events = arrayAt(member(o, 'events') ?? [], `${at}.events`).map((ev, i) => {
      const eat = `${at}.events[${i}]`;
      const eo = objectAt(ev, eat);
      return {
        name: optionalString(member(eo, 'name'), `${eat}.name`),
        time: nanosAt(member(eo, 'timeUnixNano', 'time_unix_nano'), `${eat}.timeUnixNano`),
        attributes: attributesAt(member(eo, 'attributes'), `${eat}.attributes`),
      };
    });
    this.spans.push({
      traceId: traceId.toLowerCase(),
      spanId: spanId.toLowerCase(),
      parentSpanId: parentSpanId?.toLowerCase() ?? null,
      name: optionalString(member(o, 'name'), `${at}.name`),
      kind: enumAt(member(o, 'kind'), SPAN_KINDS, 'SPAN_KIND_', `${at}.kind`),
      start,
      end,
      attributes: attributesAt(member(o, 'attributes'), `${at}.attributes`),
      events,
      statusCode,
      statusMessage,
      resource,
      scope,
      order: this.spans.length,
    });
  }
}

/** A member by its lowerCamelCase name, else its snake_case name. */
function member(o: Readonly<Record<string, unknown>>, camel: string, snake?: string): unknown {
  if (Object.hasOwn(o, camel)) return o[camel];
  return snake !== undefined && Object.hasOwn(o, snake) ? o[snake] : undefined;
}

function objectAt(value: unknown, at: string): Readonly<Record<string, unknown>> {
  if (!isRecord(value)) bad(at, 'an object', value);
  return value;
}

function arrayAt(value: unknown, at: string): readonly unknown[] {
  if (value === null) return [];
  if (!Array.isArray(value)) bad(at, 'an array', value);
  return value;
}

function optionalString(value: unknown, at: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') bad(at, 'a string', value);
  return value;
}

function idAt(value: unknown, pattern: RegExp, at: string, what: string): string {
  if (typeof value !== 'string' || !pattern.test(value) || /^0+$/.test(value))
    bad(at, `${what} (not all zero)`, value);
  return value;
}

/** An enum as its number or its name (protobuf JSON allows both). */
function enumAt(value: unknown, names: readonly string[], prefix: string, at: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < names.length)
    return value;
  if (typeof value === 'string') {
    const i = names.indexOf(value.startsWith(prefix) ? value.slice(prefix.length) : value);
    if (i >= 0) return i;
  }
  bad(at, `one of 0..${names.length - 1} or ${prefix}${names.join(`, ${prefix}`)}`, value);
}

/** A fixed64 nanosecond time (string or number) as whole milliseconds. */
function nanosAt(value: unknown, at: string): number {
  let nanos: bigint;
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) nanos = BigInt(value);
  else if (typeof value === 'number' && Number.isInteger(value) && value >= 0)
    nanos = BigInt(value);
  else bad(at, 'unsigned nanoseconds since the epoch (a decimal string or an integer)', value);
  // fixed64: at most 2^64 - 1 (which is in the year 2554, within ISO 8601's four-digit years).
  if (nanos > 0xffff_ffff_ffff_ffffn) bad(at, 'a fixed64 (at most 18446744073709551615)', value);
  return Number(nanos / 1_000_000n);
}

/** A KeyValue list as a map (a repeated key: the last one wins, as in the OTel SDKs). */
function attributesAt(value: unknown, at: string): Map<string, AttributeValue> {
  const map = new Map<string, AttributeValue>();
  arrayAt(value ?? [], at).forEach((kv, i) => {
    const kat = `${at}[${i}]`;
    const o = objectAt(kv, kat);
    const key = member(o, 'key');
    if (typeof key !== 'string') bad(`${kat}.key`, 'a string', key);
    map.set(key, anyValueAt(member(o, 'value'), `${kat}.value`, 0));
  });
  return map;
}

const MAX_VALUE_DEPTH = 64;

/** An AnyValue as JSON data. */
function anyValueAt(value: unknown, at: string, depth: number): AttributeValue {
  if (value === undefined || value === null) return null;
  if (depth > MAX_VALUE_DEPTH)
    badText(at, `values nested at most ${MAX_VALUE_DEPTH} deep`, 'deeper');
  const o = objectAt(value, at);
  const keys = Object.keys(o);
  if (keys.length === 0) return null;
  if (keys.length > 1)
    badText(at, 'an AnyValue with one member', `members ${keys.slice(0, 5).join(', ')}`);
  const key = keys[0] as string;
  const v = o[key];
  switch (key) {
    case 'stringValue':
    case 'string_value':
      if (typeof v !== 'string') bad(`${at}.${key}`, 'a string', v);
      return v;
    case 'boolValue':
    case 'bool_value':
      if (typeof v !== 'boolean') bad(`${at}.${key}`, 'a boolean', v);
      return v;
    case 'intValue':
    case 'int_value':
      return intAt(v, `${at}.${key}`);
    case 'doubleValue':
    case 'double_value':
      if (typeof v === 'number') return v;
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      bad(`${at}.${key}`, 'a finite number', v);
    // eslint-disable-next-line no-fallthrough -- bad() never returns
    case 'bytesValue':
    case 'bytes_value':
      if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v))
        bad(`${at}.${key}`, 'base64 text', v);
      return v;
    case 'arrayValue':
    case 'array_value': {
      const values = member(objectAt(v, `${at}.${key}`), 'values');
      return arrayAt(values ?? [], `${at}.${key}.values`).map((item, i) =>
        anyValueAt(item, `${at}.${key}.values[${i}]`, depth + 1),
      );
    }
    case 'kvlistValue':
    case 'kvlist_value': {
      const values = member(objectAt(v, `${at}.${key}`), 'values');
      const out: Record<string, AttributeValue> = {};
      arrayAt(values ?? [], `${at}.${key}.values`).forEach((kv, i) => {
        const kat = `${at}.${key}.values[${i}]`;
        const ko = objectAt(kv, kat);
        const k = member(ko, 'key');
        if (typeof k !== 'string') bad(`${kat}.key`, 'a string', k);
        Object.defineProperty(out, k, {
          value: anyValueAt(member(ko, 'value'), `${kat}.value`, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      });
      return out;
    }
    default:
      badText(
        at,
        'an AnyValue (stringValue, boolValue, intValue, doubleValue, bytesValue, arrayValue or kvlistValue)',
        `member ${JSON.stringify(key)}`,
      );
  }
}

/** An int64 as a number: a decimal string (OTLP/JSON) or an integer. Beyond 2^53 it is refused. */
function intAt(value: unknown, at: string): number {
  const n = typeof value === 'string' && /^-?\d{1,20}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n))
    bad(at, 'an integer within ±2^53 (a decimal string or a number)', value);
  return n;
}

function bad(at: string, expected: string, got: unknown): never {
  badText(at, expected, describe(got));
}

/** As bad(), with the "got" half already written. */
function badText(at: string, expected: string, got: string): never {
  throw new OtlpError('OTLP_BAD_FIELD', `expected ${at} to be ${expected}, got ${got}`);
}
