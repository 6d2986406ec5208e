// A record loaded for replay: verified, then read once. JSON text (bytes decoded once) is
// verified and then read from that very string, so the calls served are the ones verified
// (docs/guides/replay.md); the events are not held parsed:
// one pass indexes the recorded calls, and a call's event is parsed again when it is served
// (session/stored-events.ts). A record given parsed is used as it is.
import { captureOfKinds, type CaptureEnvOptions } from '../session/capture-settings.js';
import { RecordedCassette } from '../session/cassette.js';
import { recordSpans } from '../session/record-spans.js';
import { StoredEvents, indexStoredEvents } from '../session/stored-events.js';
import { recordedProviders } from '../session/placeholder-credentials.js';

/** The manifest members a replay reads. */
export interface ReplayManifest {
  readonly run_id: string;
  readonly content_digest: string;
  readonly replay: { readonly cassette_digest: string; readonly entry_count: number };
}

/** A verified record, as replay reads it. */
export interface LoadedRecord {
  readonly manifest: ReplayManifest;
  readonly run: Record<string, unknown>;
  /**
   * Every event, parsed when first read and then kept: for a divergence report, and for callers
   * of loadRecordForReplay. replay() itself reads the members below.
   */
  readonly events: readonly Record<string, unknown>[];
  /** The first run-start and run-end events. */
  readonly start: Readonly<Record<string, unknown>> | undefined;
  readonly end: Readonly<Record<string, unknown>> | undefined;
  /** The environment capture a replay needs: the kinds the record holds. */
  readonly capture: CaptureEnvOptions;
  /** The providers the record's model calls went to (recordedProviders). */
  readonly providers: readonly string[];
  /** A fresh cassette of the recorded calls (each call served at most once from it). */
  cassette(): RecordedCassette;
}

/** The events' environment capture (docs/spec.md §5: env events name their kind). */
export function captureOf(events: readonly Record<string, unknown>[]): CaptureEnvOptions {
  const kinds = new Set(events.filter((e) => e['type'] === 'env').map((e) => String(e['kind'])));
  return captureOfKinds(
    kinds,
    events.some((e) => e['type'] === 'llm'),
  );
}

/** A record given as parsed JSON (already verified as it is). */
export function parsedRecord(record: {
  readonly manifest: ReplayManifest;
  readonly run: Record<string, unknown>;
  readonly events: readonly Record<string, unknown>[];
}): LoadedRecord {
  const events = record.events;
  const phase = (p: string) => events.find((e) => e['type'] === 'run' && e['phase'] === p);
  return {
    manifest: record.manifest,
    run: record.run,
    events,
    start: phase('start'),
    end: phase('end'),
    capture: captureOf(events),
    providers: recordedProviders(events),
    cassette: () => new RecordedCassette(events),
  };
}

/**
 * A verified record's text, read without parsing it whole: its manifest and run summary are
 * parsed, its events indexed in one pass and kept as spans of `text` (a string: no one can
 * change it afterwards).
 */
export function storedRecord(text: string): LoadedRecord {
  const spans = recordSpans(text);
  const member = (name: string): unknown => {
    const span = spans.members.get(name);
    if (span === undefined) return undefined;
    return JSON.parse(text.slice(span[0], span[1]));
  };
  const stored = new StoredEvents(text, spans.events);
  const index = indexStoredEvents(stored);
  const calls = index.calls;
  let parsed: Record<string, unknown>[] | undefined;
  return {
    manifest: member('manifest') as ReplayManifest,
    run: member('run') as Record<string, unknown>,
    get events() {
      if (parsed === undefined) {
        parsed = [];
        for (let i = 0; i < stored.length; i++) parsed.push(stored.event(i));
      }
      return parsed;
    },
    start: index.start,
    end: index.end,
    capture: index.capture,
    providers: recordedProviders(index.models),
    cassette: () => new RecordedCassette(calls),
  };
}
