// The first stretch of a streamed record's events read at once, the way verifyJson reads a
// whole record (fast-path/event-views.ts): canonicalized and hashed in one pass from the text,
// each proven event handed on as a view. The window starts at the first event, where the
// chain starts from h_0 = "" as the pass does (docs/spec.md §3), and holds at most
// WINDOW_CHARS characters, so memory stays bounded; the events after it are read one by one.
import { canonicalizeEvents, type CanonicalizedEvents } from '../fast-path/canonicalized-events.js';
import { readRecordWithViews } from '../fast-path/event-views.js';

/** Characters of event text the first window holds (a 46 MB record's events fit in one). */
export const WINDOW_CHARS = 64 * 1024 * 1024;

/** The window's events (views where proven) and what the pass knows of them. */
export interface EventWindow {
  readonly events: readonly unknown[];
  readonly known: CanonicalizedEvents;
}

/**
 * The events whose texts are `texts` (the first events of the record, in order), or undefined
 * when the pass or the strict reading of the window declines (a syntax error, a duplicate
 * name…): the caller then reads each event on its own, which reports exactly what is wrong.
 */
export function readEventWindow(texts: readonly string[]): EventWindow | undefined {
  if (texts.length === 0) return undefined;
  try {
    // A record holding only these events: each sits at the depth it has in the record.
    const text = '{"events":[' + texts.join(',') + ']}';
    const known = canonicalizeEvents(text);
    if (known === null || known.count !== texts.length) return undefined;
    const read = readRecordWithViews(text, known.scan);
    if (read === undefined) return undefined;
    const events = (read.record as { events?: unknown }).events;
    if (!Array.isArray(events) || events.length !== texts.length) return undefined;
    known.useCassetteMembers(read.cassetteMembers);
    return { events, known };
  } catch {
    return undefined;
  }
}
