// The protobufjs classes generated from the official opentelemetry-proto .proto files (as
// @opentelemetry/otlp-transformer 0.212.0 ships them), to decode what the exporter writes
// with a reader runback did not write.
import { createRequire } from 'node:module';

interface Message {
  readonly [key: string]: unknown;
}
interface MessageClass {
  verify(object: unknown): string | null;
  fromObject(object: unknown): Message;
  toObject(message: Message, options: Record<string, unknown>): Record<string, unknown>;
  encode(message: Message): { finish(): Uint8Array };
  decode(bytes: Uint8Array): Message;
}

const require = createRequire(import.meta.url);
const root = require('otlp-proto-root/build/src/generated/root.js') as {
  opentelemetry: {
    proto: { collector: { trace: { v1: { ExportTraceServiceRequest: MessageClass } } } };
  };
};

/** opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest. */
export const ExportTraceServiceRequest =
  root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

const ID_MEMBERS = new Set(['traceId', 'spanId', 'parentSpanId']);

/**
 * OTLP/JSON → the protobuf JSON mapping protobufjs reads: the OTLP specification writes trace
 * and span ids as hex where protobuf JSON has base64 bytes; everything else is the same.
 */
export function otlpJsonToProtoObject(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && ID_MEMBERS.has(key)) return Buffer.from(value, 'hex');
  if (Array.isArray(value)) return value.map((v) => otlpJsonToProtoObject(v));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, otlpJsonToProtoObject(v, k)]),
    );
  }
  return value;
}

/** A decoded request as plain data: ids hex, 64-bit integers as decimal strings. */
export function decodedToPlain(message: Message): unknown {
  const object = ExportTraceServiceRequest.toObject(message, {
    longs: String,
    enums: Number,
    bytes: Array,
    defaults: false,
    arrays: true,
  });
  return bytesToHex(object);
}

function bytesToHex(value: unknown, key = ''): unknown {
  if (Array.isArray(value) && ID_MEMBERS.has(key))
    return Buffer.from(value as number[]).toString('hex');
  if (Array.isArray(value)) return value.map((v) => bytesToHex(v));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bytesToHex(v, k)]));
  }
  return value;
}

/**
 * The meaning of a request, whoever wrote it: default values (0, "", empty lists) dropped as
 * protobuf drops them, 64-bit integers as decimal strings.
 */
export function meaningOf(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => meaningOf(v));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const m = meaningOf(v, k);
      if (
        m === undefined ||
        m === 0 ||
        m === '' ||
        m === '0' ||
        (Array.isArray(m) && m.length === 0)
      )
        continue;
      if (
        k !== 'value' &&
        typeof m === 'object' &&
        m !== null &&
        !Array.isArray(m) &&
        Object.keys(m).length === 0
      )
        continue;
      out[k] = m;
    }
    return out;
  }
  if (typeof value === 'number' && (key === 'intValue' || key.endsWith('UnixNano')))
    return String(value);
  return value;
}
