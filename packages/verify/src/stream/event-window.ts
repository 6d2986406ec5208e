// A stretch of a streamed record's events read at once, the way verifyJson reads a whole
// record (fast-path/event-views.ts): canonicalized in one pass from the text, each proven
// event handed on as a view. A window holds at most WINDOW_CHARS characters (or one event), so
// memory stays bounded. The pass chains from h_0 = "" (docs/spec.md §3), so its hashes serve
// the first window; the chain of later ones hashes each event's canonical text.
import { canonicalizeEvents, type CanonicalizedEvents } from '../fast-path/canonicalized-events.js';
import { readRecordWithViews } from '../fast-path/event-views.js';

/**
 * Characters of event text a window holds. Measured through `runback verify` on the bench's
 * 1 GB record: peak RSS 471 MB with 4 Mi, 489 MB with 2 Mi, 592 MB with 16 Mi and 913 MB with
 * 48 Mi (garbage of earlier windows is collected late), against the 512 MB the record must
 * stream within.
 */
export const WINDOW_CHARS = 4 * 1024 * 1024;

/** The window's events (views where proven) and what the pass knows of them. */
export interface EventWindow {
  readonly events: readonly unknown[];
  readonly known: CanonicalizedEvents;
}

/** A window read: its events, or (window undefined) a way to read each event on its own. */
export interface WindowRead {
  readonly window: EventWindow | undefined;
  readonly count: number;
  /** The text of the window's event `i` (as it was handed in). */
  eventText(i: number): string;
}

/** Where the first event starts in a window's text. */
const PREFIX = '{"events":[';

/**
 * Reads the events whose texts are `texts`, in order, as one record holding only them (each at
 * the depth it has in the record). Empties `texts`: the window's text holds them, and keeping
 * both would double its memory. The window is undefined when the pass or the strict reading
 * declines (a syntax error, a duplicate name…): the caller then reads each event on its own,
 * which reports exactly what is wrong.
 */
export function readEventWindow(texts: string[]): WindowRead {
  const count = texts.length;
  const starts = new Float64Array(count + 1);
  let at = PREFIX.length;
  for (let i = 0; i < count; i++) {
    starts[i] = at;
    at += (texts[i] as string).length + 1;
  }
  starts[count] = at;
  const text = PREFIX + texts.join(',') + ']}';
  texts.length = 0;
  const eventText = (i: number): string => text.slice(starts[i], (starts[i + 1] as number) - 1);
  return { window: windowOf(text, count), count, eventText };
}

function windowOf(text: string, count: number): EventWindow | undefined {
  try {
    const known = canonicalizeEvents(text);
    if (known === null || known.count !== count) return undefined;
    const read = readRecordWithViews(text, known.scan);
    if (read === undefined) return undefined;
    const events = (read.record as { events?: unknown }).events;
    if (!Array.isArray(events) || events.length !== count) return undefined;
    known.useCassetteMembers(read.cassetteMembers);
    return { events, known };
  } catch {
    return undefined;
  }
}
