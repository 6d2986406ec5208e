// A runback export is read back from its runback.event attributes, so an edit to the GenAI
// attributes a viewer shows (tokens, model, tool name) would otherwise go unnoticed. Each span
// is compared with the attributes its event exports as: every difference is reported.
import type { Attributes } from '@opentelemetry/api';
import { canonical } from '@runback/canonical';
import { llmAttributes, toolAttributes } from '../export/event-attributes.js';
import { readRecord } from '../export/record-view.js';
import * as N from '../names.js';
import type { AttributeValue, OtlpSpan } from './otlp-spans.js';

/** Differences between the spans and what their events export as, in document order. */
export function exportDifferences(
  runId: string,
  events: readonly Record<string, unknown>[],
  spans: readonly OtlpSpan[],
): string[] {
  let view;
  try {
    view = readRecord({ manifest: { run_id: runId }, run: {}, events });
  } catch {
    return []; // not shaped like a record: sealing reports it
  }
  const byIndex = new Map(view.events.map((e) => [e.index, e]));
  const differences: string[] = [];
  for (const span of spans) {
    const index = span.attributes.get(N.ATTR_RUNBACK_EVENT_INDEX);
    const event = typeof index === 'number' ? byIndex.get(index) : undefined;
    if (event === undefined || (event.type !== 'llm' && event.type !== 'tool')) continue;
    const expected = (event.type === 'llm' ? llmAttributes : toolAttributes)(event, true);
    if (span.name !== expected.name)
      differences.push(
        `span ${span.spanId}: its name is ${JSON.stringify(span.name)}, its runback.event says ${JSON.stringify(expected.name)}`,
      );
    for (const [key, value] of Object.entries(expected.attributes)) {
      if (!key.startsWith('gen_ai.') && key !== N.ATTR_ERROR_TYPE) continue;
      const got = span.attributes.get(key);
      if (got === undefined) {
        differences.push(
          `span ${span.spanId}: ${key} is missing, its runback.event says ${shown(value)}`,
        );
      } else if (canonical(got) !== canonical(value)) {
        differences.push(
          `span ${span.spanId}: ${key} is ${shown(got)}, its runback.event says ${shown(value)}`,
        );
      }
    }
    for (const key of span.attributes.keys()) {
      if (
        (key.startsWith('gen_ai.') || key === N.ATTR_ERROR_TYPE) &&
        !Object.hasOwn(expected.attributes, key)
      )
        differences.push(
          `span ${span.spanId}: ${key} is ${shown(span.attributes.get(key))}, its runback.event has none`,
        );
    }
  }
  return differences;
}

function shown(value: AttributeValue | Attributes[string] | undefined): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
