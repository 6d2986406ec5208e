// The record verifyJson hands the steps when the event canonicalizer has proven its events:
// the record's other parts parsed as usual, and each proven event as a light view built from
// the canonicalizer's spans of its top-level members instead of JSON.parse building its whole
// object graph (docs/spec.md §6: the reading rules are the same; only the work differs).
//
// A view holds the members the steps read (schema §5.1, consistent §5.2, chain §3, cassette
// §4), each with the value JSON.parse gives, except that a request, response, input or output
// object or array is an empty one of the same kind: the cassette takes its canonical text from
// the canonicalizer (KnownMemberTexts), and no step looks inside it. An event whose content a
// step does read (a run event, whose output and error the summary is compared with; a
// key_projection, which is applied to the input) or whose names are escaped is parsed whole.
// A step that comes to read another event member must add it to VIEW_MEMBERS.
//
// An event becomes a view only when the canonicalizer proved it (it is JSON, structure and
// tokens, repeats no name and overflows no number, event-reader.ts) and it nests within the
// strict reader's limit. The rest of the text is read by the strict reader with each view's
// event replaced by `0`: when that reading fails, verifyJson reads the whole text again the
// general way, so every error is reported exactly as before.
import { parseJsonStrictSpans } from '../json/index.js';
import { DEFAULT_MAX_DEPTH } from '../json/types.js';
import type { CanonicalizerResult } from './event-canonicalizer.js';
import { CanonicalizedEvents } from './canonicalized-events.js';
import { NameSlots, sameSpans } from './span-words.js';

/** The event members the steps read; any other member is left out of a view. */
export const VIEW_MEMBERS: readonly string[] = [
  // schema
  'schema_version',
  'span_id',
  'type',
  'ts_start',
  'ts_end',
  'parent_span_id',
  '_hash',
  // consistent
  'run_id',
  'seq',
  'phase',
  // cassette
  'model',
  'tool_name',
  'key_projection',
  'request',
  'response',
  'input',
  'output',
  'error',
  'kind',
  'key',
];

/**
 * VIEW_MEMBERS matched to their slots (their place in VIEW_MEMBERS, Slot's order) without
 * slicing a name span.
 */
const NAME_SLOTS = new NameSlots(VIEW_MEMBERS);

/** The events array and the record's other parts sit at depths 1 and 2 of the record. */
const EVENT_DEPTH_LIMIT = DEFAULT_MAX_DEPTH - 2;

/** A record read with views, and where the views' cassette members are (CASSETTE_SLOTS order). */
export interface RecordWithViews {
  readonly record: unknown;
  readonly cassetteMembers: Int32Array;
}

/**
 * A record read around its proven events: the record's other parts parsed, and `events` (the
 * record's events array) holding each event that is not a view (asView[k] = 0) as parsed and a
 * placeholder where event k is a view (ViewReader.view(k) reads it).
 */
export interface RecordAroundViews {
  readonly record: unknown;
  readonly events: unknown[];
  readonly asView: Uint8Array;
}

/**
 * The record read from `text` around its proven events, or undefined when there is nothing to
 * gain or the reduced text does not read (then the caller reads the whole text). `scan` is the
 * canonicalizer's result for this very text.
 */
export function readRecordAroundViews(
  text: string,
  scan: CanonicalizerResult,
): RecordAroundViews | undefined {
  const { count, starts, ends } = scan;
  if (count === 0) return undefined;
  const asView = new Uint8Array(count);
  let views = 0;
  for (let k = 0; k < count; k++) {
    if (canBeView(scan, k)) {
      asView[k] = 1;
      views++;
    }
  }
  if (views === 0) return undefined;
  // The text with each view's event written as 0. Between two events the canonicalizer found
  // only whitespace and one comma, so a comma stands for it. A run of views is one piece.
  const pieces: string[] = [text.slice(0, starts[0])];
  for (let k = 0; k < count;) {
    if (asView[k] === 1) {
      let after = k + 1;
      while (after < count && asView[after] === 1) after++;
      pieces.push(k > 0 ? ',0' : '0', ',0'.repeat(after - k - 1));
      k = after;
    } else {
      pieces.push(k > 0 ? ',' : '', text.slice(starts[k], ends[k]));
      k++;
    }
  }
  pieces.push(text.slice(ends[count - 1]));
  const parsed = parseJsonStrictSpans(pieces.join(''), undefined, undefined);
  if (!parsed.ok) return undefined;
  const record = parsed.value as { events?: unknown } | null;
  const events = record?.events;
  if (!Array.isArray(events) || events.length !== count) return undefined;
  return { record, events, asView };
}

/** The record read around views with each view read into its place in the events array. */
export function withViews(
  text: string,
  scan: CanonicalizerResult,
  { record, events, asView }: RecordAroundViews,
): RecordWithViews {
  const reader = new ViewReader(text, scan, events.length);
  for (let k = 0; k < events.length; k++) if (asView[k] === 1) events[k] = reader.view(k);
  return { record, cassetteMembers: reader.cassetteMembers };
}

/**
 * Whether event k of the scan may be read as a view: proven, and nesting within the strict
 * reader's limit (an event nested deeper is parsed, which reports it).
 */
export function canBeView(scan: CanonicalizerResult, k: number): boolean {
  return scan.proven[k] === 1 && (scan.depths[k] as number) <= EVENT_DEPTH_LIMIT;
}

/** Empty containers standing for members the cassette takes as text (never written to). */
const EMPTY_OBJECT: Readonly<Record<string, unknown>> = Object.freeze({});
const EMPTY_ARRAY: readonly unknown[] = Object.freeze([]);

/** Where each member of VIEW_MEMBERS goes in a view's slots. */
const Slot = {
  SchemaVersion: 0,
  SpanId: 1,
  Type: 2,
  TsStart: 3,
  TsEnd: 4,
  ParentSpanId: 5,
  Hash: 6,
  RunId: 7,
  Seq: 8,
  Phase: 9,
  Model: 10,
  ToolName: 11,
  KeyProjection: 12,
  Request: 13,
  Response: 14,
  Input: 15,
  Output: 16,
  Error: 17,
  Kind: 18,
  Key: 19,
  Count: 20,
} as const;

/** A view's members: those of VIEW_MEMBERS, in its order. */
interface View {
  schema_version: unknown;
  span_id: unknown;
  type: unknown;
  ts_start: unknown;
  ts_end: unknown;
  parent_span_id: unknown;
  _hash: unknown;
  run_id: unknown;
  seq: unknown;
  phase: unknown;
  model: unknown;
  tool_name: unknown;
  key_projection: unknown;
  request: unknown;
  response: unknown;
  input: unknown;
  output: unknown;
  error: unknown;
  kind: unknown;
  key: unknown;
}

/**
 * A view with every member of VIEW_MEMBERS undefined (as reading an absent member gives),
 * each then set from the event. One shape for every view, so that the steps' member reads
 * stay monomorphic; no step asks whether an event has a member other than by reading it.
 */
function emptyView(): View {
  return {
    schema_version: undefined,
    span_id: undefined,
    type: undefined,
    ts_start: undefined,
    ts_end: undefined,
    parent_span_id: undefined,
    _hash: undefined,
    run_id: undefined,
    seq: undefined,
    phase: undefined,
    model: undefined,
    tool_name: undefined,
    key_projection: undefined,
    request: undefined,
    response: undefined,
    input: undefined,
    output: undefined,
    error: undefined,
    kind: undefined,
    key: undefined,
  };
}

/** Sets the member of `view` in `slot` (a store to a named property: one shape throughout). */
function setMember(view: View, slot: number, value: unknown): void {
  switch (slot) {
    case Slot.SchemaVersion:
      view.schema_version = value;
      return;
    case Slot.SpanId:
      view.span_id = value;
      return;
    case Slot.Type:
      view.type = value;
      return;
    case Slot.TsStart:
      view.ts_start = value;
      return;
    case Slot.TsEnd:
      view.ts_end = value;
      return;
    case Slot.ParentSpanId:
      view.parent_span_id = value;
      return;
    case Slot.Hash:
      view._hash = value;
      return;
    case Slot.RunId:
      view.run_id = value;
      return;
    case Slot.Seq:
      view.seq = value;
      return;
    case Slot.Phase:
      view.phase = value;
      return;
    case Slot.Model:
      view.model = value;
      return;
    case Slot.ToolName:
      view.tool_name = value;
      return;
    case Slot.KeyProjection:
      view.key_projection = value;
      return;
    case Slot.Request:
      view.request = value;
      return;
    case Slot.Response:
      view.response = value;
      return;
    case Slot.Input:
      view.input = value;
      return;
    case Slot.Output:
      view.output = value;
      return;
    case Slot.Error:
      view.error = value;
      return;
    case Slot.Kind:
      view.kind = value;
      return;
    case Slot.Key:
      view.key = value;
  }
}

/** Values longer than this (as written) are not worth comparing with the last one. */
const MAX_SHARED = 256;

/** The slots whose value usually repeats from one event to the next (1), worth comparing. */
const SHARED: Uint8Array = (() => {
  const shared = new Uint8Array(Slot.Count);
  for (const slot of [
    Slot.SchemaVersion,
    Slot.Type,
    Slot.ParentSpanId,
    Slot.RunId,
    Slot.Phase,
    Slot.Model,
    Slot.ToolName,
    Slot.Error,
    Slot.Kind,
    Slot.Key,
  ])
    shared[slot] = 1;
  return shared;
})();

/**
 * Reads views one after another (view(k) only for events canBeView allows). An event usually
 * repeats its run id, type and model as written in the one before: a repeated value is shared
 * instead of read again (views are never written to).
 */
export class ViewReader {
  readonly #text: string;
  readonly #scan: CanonicalizerResult;
  // The text's bytes when it is ASCII, to compare four characters at a time.
  readonly #bytes: DataView | undefined;
  readonly #members = new Int32Array(4);
  // Where the last value of each slot is written (start -1: none yet).
  readonly #lastStart = new Int32Array(Slot.Count).fill(-1);
  readonly #lastEnd = new Int32Array(Slot.Count);
  readonly #lastValue: unknown[] = new Array<unknown>(Slot.Count).fill(undefined);
  /** Per event, the member index of its request, response, input and output (see below). */
  readonly cassetteMembers: Int32Array;

  /**
   * Never used: keeps this class's object layout alive between verifications, so that the
   * code V8 optimized for it is not thrown away by each garbage collection (see
   * EventCanonicalizer.keptForLayouts).
   */
  static readonly keptForLayouts: ViewReader = new ViewReader(
    '[]',
    CanonicalizedEvents.keptForLayouts.scan,
    0,
  );

  constructor(text: string, scan: CanonicalizerResult, count: number) {
    this.#text = text;
    this.#scan = scan;
    const ascii = scan.ascii;
    this.#bytes =
      ascii !== undefined && ascii.length === text.length
        ? new DataView(ascii.buffer, ascii.byteOffset, ascii.length)
        : undefined;
    // -2: not looked for (the event is not a view); a view's absent member is -1.
    this.cassetteMembers = new Int32Array(count * 4).fill(-2);
  }

  /** The view of proven event k (or the event parsed whole, where a step reads inside it). */
  view(k: number): unknown {
    const text = this.#text;
    const bytes = this.#bytes;
    const scan = this.#scan;
    const { firstMember, memberNameStart, memberNameEnd, memberValueStart, memberValueEnd } = scan;
    const view = emptyView();
    // Four stores, not fill(): a builtin call that costs more than it does, per event.
    const members = this.#members;
    members[0] = members[1] = members[2] = members[3] = -1;
    const last = firstMember[k + 1] as number;
    for (let m = firstMember[k] as number; m < last; m++) {
      const ns = memberNameStart[m] as number;
      if (ns < 0) return parseWhole(text, scan, k); // an escaped name
      const slot = NAME_SLOTS.slotOf(text, bytes, ns, memberNameEnd[m] as number);
      if (slot < 0) continue;
      const vs = memberValueStart[m] as number;
      const ve = memberValueEnd[m] as number;
      const c = text.charCodeAt(vs);
      if (slot === Slot.Hash && scan.hashAsStored[k] === 1) {
        // The pass found these very digits here: the chain step's comparison of the stored
        // _hash with the hash it takes from the pass is then one of a string with itself,
        // instead of reading the text again long after the pass left it.
        view._hash = scan.hashes[k];
        continue;
      }
      if (slot >= Slot.Request && slot <= Slot.Output) members[slot - Slot.Request] = m;
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (slot >= Slot.Request && slot <= Slot.Output && scan.memberText[m] !== -2) {
          setMember(view, slot, c === 0x7b ? EMPTY_OBJECT : EMPTY_ARRAY);
          continue;
        }
      } else if (c >= 0x30 && c <= 0x39 && ve - vs < 10) {
        // A short unsigned integer (a seq, schema_version 1): read without slicing.
        setMember(view, slot, smallInteger(text, vs, ve));
        continue;
      }
      setMember(view, slot, this.#value(slot, vs, ve, c));
    }
    const projection = view.key_projection;
    if (view.type === 'run' || (projection !== undefined && projection !== null))
      return parseWhole(text, scan, k);
    const table = this.cassetteMembers;
    const at = k * 4;
    table[at] = members[0];
    table[at + 1] = members[1];
    table[at + 2] = members[2];
    table[at + 3] = members[3];
    return view;
  }

  /** The value of text[vs, ve) for the member in `slot`, shared when it repeats the last one. */
  #value(slot: number, vs: number, ve: number, c: number): unknown {
    const text = this.#text;
    const shared = SHARED[slot] === 1 && ve - vs <= MAX_SHARED;
    if (shared) {
      const start = this.#lastStart[slot] as number;
      if (
        start >= 0 &&
        (this.#lastEnd[slot] as number) - start === ve - vs &&
        sameSpans(text, this.#bytes, vs, start, ve - vs)
      )
        return this.#lastValue[slot];
    }
    const value: unknown =
      c === 0x7b || c === 0x5b ? JSON.parse(text.slice(vs, ve)) : scalarOf(text, vs, ve, c);
    if (shared) {
      this.#lastStart[slot] = vs;
      this.#lastEnd[slot] = ve;
      this.#lastValue[slot] = value;
    }
    return value;
  }
}

/** The value of the well-formed JSON integer text[s, e) of at most 9 digits. */
function smallInteger(text: string, s: number, e: number): number {
  let value = 0;
  for (let i = s; i < e; i++) {
    const d = text.charCodeAt(i) - 0x30;
    // A fraction or an exponent: read as JSON.parse reads it.
    if (d < 0 || d > 9) return Number(text.slice(s, e));
    value = value * 10 + d;
  }
  return value;
}

function parseWhole(text: string, scan: CanonicalizerResult, k: number): unknown {
  return JSON.parse(text.slice(scan.starts[k], scan.ends[k]));
}

/** The value of the well-formed scalar token text[s, e) whose first character is `c`. */
function scalarOf(text: string, s: number, e: number, c: number): unknown {
  if (c === 0x22 /* " */) {
    const content = text.slice(s + 1, e - 1);
    return content.includes('\\') ? JSON.parse(text.slice(s, e)) : content;
  }
  if (c === 0x74 /* t */) return true;
  if (c === 0x66 /* f */) return false;
  if (c === 0x6e /* n */) return null;
  // A number in the JSON grammar: Number() rounds it as JSON.parse does.
  return Number(text.slice(s, e));
}
