// A trace that runback exported carries each event's exact JSON (runback.event, with its index
// in the record in runback.event_index): reading those back gives the record's own events, so
// the re-sealed record has the same content and cassette digests as the one exported.
import { readJsonStrict } from '@runback/verify';
import { describe, OtlpError } from '../errors.js';
import { isRecord } from '../json-text.js';
import * as N from '../names.js';
import type { AttributeValue, OtlpSpan } from './otlp-spans.js';

/** The run summary and events of a runback-exported trace, in record order. */
export interface RunbackContent {
  readonly run: Record<string, unknown>;
  readonly events: Record<string, unknown>[];
}

/** True when `root` is a runback export's root span and every GenAI span carries its event. */
export function isRunbackExport(root: OtlpSpan | undefined, genai: readonly OtlpSpan[]): boolean {
  if (root === undefined) return false;
  if (!root.attributes.has(N.ATTR_RUNBACK_RUN_ID) || !root.attributes.has(N.ATTR_RUNBACK_RUN))
    return false;
  return genai.every((s) => s === root || s.attributes.has(N.ATTR_RUNBACK_EVENT));
}

/** The exact run and events of a runback export. */
export function runbackContent(root: OtlpSpan, spans: readonly OtlpSpan[]): RunbackContent {
  const run = parseObject(
    root.attributes.get(N.ATTR_RUNBACK_RUN),
    `root span attribute ${N.ATTR_RUNBACK_RUN}`,
  );
  const found: { event: Record<string, unknown>; index: number | undefined; at: string }[] = [];
  const take = (attrs: ReadonlyMap<string, AttributeValue>, at: string): void => {
    if (!attrs.has(N.ATTR_RUNBACK_EVENT)) return;
    const event = parseObject(
      attrs.get(N.ATTR_RUNBACK_EVENT),
      `${at} attribute ${N.ATTR_RUNBACK_EVENT}`,
    );
    if (typeof event['type'] !== 'string')
      fail(`expected the event in ${at} to have a string type, got ${describe(event['type'])}`);
    const index = attrs.get(N.ATTR_RUNBACK_EVENT_INDEX);
    if (
      index !== undefined &&
      (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0)
    )
      fail(
        `expected ${at} attribute ${N.ATTR_RUNBACK_EVENT_INDEX} to be an integer >= 0, got ${describe(index)}`,
      );
    found.push({ event, index, at });
  };
  for (const span of spans) {
    take(span.attributes, `span ${span.spanId}`);
    span.events.forEach((ev, i) => {
      if (ev.name.startsWith(N.EVENT_NAME_PREFIX))
        take(ev.attributes, `span ${span.spanId} event ${i}`);
    });
  }
  const indexed = found.every((f) => f.index !== undefined);
  if (indexed) {
    const seen = new Set<number>();
    for (const f of found) {
      if (seen.has(f.index as number))
        fail(
          `expected each ${N.ATTR_RUNBACK_EVENT_INDEX} once, got ${String(f.index)} twice (${f.at})`,
        );
      seen.add(f.index as number);
    }
    found.sort((a, b) => (a.index as number) - (b.index as number));
  } else {
    found.sort((a, b) => seqOf(a.event) - seqOf(b.event));
  }
  return { run, events: found.map((f) => f.event) };
}

function seqOf(event: Readonly<Record<string, unknown>>): number {
  return typeof event['seq'] === 'number' ? event['seq'] : Number.MAX_SAFE_INTEGER;
}

function parseObject(value: AttributeValue | undefined, at: string): Record<string, unknown> {
  if (typeof value !== 'string') fail(`expected ${at} to be JSON text, got ${describe(value)}`);
  const parsed = readJsonStrict(value);
  if (!parsed.ok)
    fail(`expected ${at} to be JSON, got ${parsed.error.code}: ${parsed.error.message}`);
  if (!isRecord(parsed.value))
    fail(`expected ${at} to be a JSON object, got ${describe(parsed.value)}`);
  return parsed.value;
}

function fail(message: string): never {
  throw new OtlpError('OTLP_BAD_RUNBACK_EVENT', message);
}
