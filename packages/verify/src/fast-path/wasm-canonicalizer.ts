// The event canonicalizer's pass in WebAssembly (wasm/canonical-pass.ts, compiled into
// ./wasm/canonical-pass-module.ts), for records read from UTF-8 bytes: it gives the same
// CanonicalizerResult as EventCanonicalizer.scanArray (event-canonicalizer.ts), faster and
// with no warm-up in a fresh process (docs/benchmarks.md), or null, and then the caller runs
// the JavaScript pass, which decides every case the module leaves to it (escapes and numbers it
// would reprint, escaped names, syntax errors, repeated names, deep nesting). The module
// writes each event's canonical form; this hashes it into the chain (docs/spec.md §3) as
// EventCanonicalizer does.
//
// Where WebAssembly cannot be compiled here (no WebAssembly, a content security policy without
// 'wasm-unsafe-eval', a browser's main thread, which compiles only small modules at once), the
// JavaScript pass is used.
import { sha256Hex } from '@runback/canonical';
import type { CanonicalizerResult } from './event-canonicalizer.js';
import { skipWhitespace } from './lexer.js';
import { textsOf } from './member-texts.js';
import { CANONICAL_PASS_WASM } from './wasm/canonical-pass-module.js';

interface PassExports {
  setup(
    n: number,
    out: number,
    outLimit: number,
    scratch: number,
    stack: number,
    stackSlots: number,
    events: number,
    eventSlots: number,
    members: number,
    memberSlots: number,
    texts: number,
    textSlots: number,
    result: number,
    pending: number,
    deferred: number,
    deferredSlots: number,
    startDelta: number,
  ): void;
  readEvent(at: number): number;
  nextEvent(p: number): number;
  finish(): number;
  stackSlotBytes(): number;
}

/** Bytes left before each event's output for h_{k-1} (as in event-writer.ts). */
const HEAD = 64;
const PAGE = 65536;
/** Member stack slots (of the module's stackSlotBytes() each): members open at once in one event. */
const STACK_SLOTS = 1 << 16;
/** The member stack's slot size in bytes is at most this (checked against the module's). */
const MAX_SLOT_BYTES = 32;
/** Numbers of one event the module leaves to Number::toString (8 bytes each: start, end). */
const DEFERRED_SLOTS = 1 << 14;

const encoder = new TextEncoder();

/** The part of the WebAssembly API used here (a global of every engine that has one). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
}

// The compiled module: undefined until first asked for, null where it cannot be compiled. A
// compiled module is immutable and holds no state of any verification.
let compiled: object | null | undefined;

function passModule(api: WebAssemblyApi | undefined): object | null {
  if (compiled === undefined) {
    compiled = null;
    try {
      if (api !== undefined) {
        const binary = atob(CANONICAL_PASS_WASM);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
        compiled = new api.Module(bytes);
      }
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

const align = (at: number): number => (at + 7) & ~7;

/**
 * Canonicalizes and chains the elements of the events array whose `[` is just before `at` (an
 * index of `text`), reading `input`: the UTF-8 bytes `text` was strictly decoded from. Null
 * when the module is not available or leaves any event to the JavaScript pass.
 */
export function wasmScanArray(
  text: string,
  input: Uint8Array,
  at: number,
): CanonicalizerResult | null {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  const compiledModule = passModule(api);
  if (api === undefined || compiledModule === null) return null;
  const first = skipWhitespace(text, at);
  if (text.charCodeAt(first) !== 0x7b /* { */) return null;
  const n = input.length;
  const ascii = n === text.length;
  // Where the first event starts in the bytes: the bytes of the text before it (and a byte
  // order mark, when the decoder dropped one).
  let p = first;
  if (!ascii) {
    const dropped =
      input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf && text.charCodeAt(0) !== 0xfeff;
    p = (dropped ? 3 : 0) + encoder.encode(text.slice(0, first)).length;
  }
  if (input[p] !== 0x7b) return null;
  // The layout: the input, the output (never longer than the input, plus one head), a scratch
  // area for reordering members, the member stack, then the tables, column by column.
  const eventSlots = Math.ceil(n / 32) + 64;
  const memberSlots = Math.ceil(n / 8) + 64;
  const textSlots = eventSlots * 4 + 4;
  const out = align(n + 16);
  const outLimit = out + n + 2 * HEAD;
  const scratch = align(outLimit + 16);
  const stack = align(scratch + n + 64);
  const events = stack + STACK_SLOTS * MAX_SLOT_BYTES;
  const members = events + (5 * eventSlots + 1) * 4;
  const texts = members + 5 * memberSlots * 4;
  const result = texts + 2 * textSlots * 4;
  const pending = result + 32;
  const deferred = pending + 64;
  const size = deferred + DEFERRED_SLOTS * 8;
  let memory: { readonly buffer: ArrayBuffer };
  let pass: PassExports;
  try {
    memory = new api.Memory({ initial: Math.ceil(size / PAGE) });
    const instance = new api.Instance(compiledModule, {
      env: {
        memory,
        abort: () => {
          throw new Error('canonical pass: abort');
        },
      },
    });
    pass = instance.exports as PassExports;
    if (pass.stackSlotBytes() > MAX_SLOT_BYTES) return null;
  } catch {
    return null;
  }
  const bytes = new Uint8Array(memory.buffer);
  bytes.set(input);
  pass.setup(
    n,
    out,
    outLimit,
    scratch,
    stack,
    STACK_SLOTS,
    events,
    eventSlots,
    members,
    memberSlots,
    texts,
    textSlots,
    result,
    pending,
    deferred,
    DEFERRED_SLOTS,
    p - first,
  );
  const res = new Int32Array(memory.buffer, result, 6);
  const spans = new Int32Array(memory.buffer, deferred, DEFERRED_SLOTS * 2);
  const hashes: string[] = [];
  const hashAsStored = new Uint8Array(eventSlots);
  // Where the input holds h_{k-1}'s digits (the last event's _hash value), -1: it does not.
  let headAt = -1;
  let head = '';
  for (let k = 0; ; k++) {
    const end = pass.readEvent(p);
    if (end < 0 || !printedAsWritten(text, spans, res[4] as number)) return null;
    const outStart = res[0] as number;
    const outEnd = res[1] as number;
    let from = outStart;
    if (k > 0) {
      from = outStart - HEAD;
      if (headAt >= 0) bytes.copyWithin(from, headAt, headAt + HEAD);
      else encoder.encodeInto(head, bytes.subarray(from, outStart));
    }
    const hash = sha256Hex(bytes.subarray(from, outEnd));
    hashes.push(hash);
    head = hash;
    // The event's _hash, when it holds these digits, gives the next event its head bytes.
    const vs = res[2] as number;
    headAt =
      vs >= 0 && (res[3] as number) === vs + HEAD + 2 && text.slice(vs + 1, vs + 1 + HEAD) === hash
        ? (res[5] as number) + 1
        : -1;
    hashAsStored[k] = headAt >= 0 ? 1 : 0;
    p = pass.nextEvent(end);
    if (p === -2) break;
    if (p < 0) return null;
  }
  const textCount = pass.finish();
  const count = hashes.length;
  const buffer = memory.buffer;
  const column = (table: number, slots: number, c: number, length = slots) =>
    new Int32Array(buffer, table + c * slots * 4, length);
  const textStarts = column(texts, textSlots, 0);
  const textEnds = column(texts, textSlots, 1);
  const proven = new Uint8Array(count).fill(1);
  // Members in the order EventCanonicalizer's result has them: one object layout for both, so
  // the code that reads a result (views, cassette texts) stays monomorphic.
  return {
    count,
    starts: column(events, eventSlots, 0),
    ends: column(events, eventSlots, 1),
    names: column(events, eventSlots, 2),
    depths: column(events, eventSlots, 3),
    proven,
    hashes,
    hashAsStored,
    chained: count,
    firstMember: column(events, eventSlots, 4, eventSlots + 1),
    memberNameStart: column(members, memberSlots, 0),
    memberNameEnd: column(members, memberSlots, 1),
    memberValueStart: column(members, memberSlots, 2),
    memberValueEnd: column(members, memberSlots, 3),
    memberText: column(members, memberSlots, 4),
    texts: textsOf(bytes, textStarts, textEnds, textCount),
    textBytes: bytes,
    textStarts,
    textEnds,
    ascii: ascii ? input : undefined,
  };
}

/**
 * Whether each of the `count` numbers listed in `spans` (start, end) is written as
 * Number::toString prints it (docs/spec.md §2): then it is canonical as written; else the event
 * would need it reprinted, which the JavaScript pass does.
 */
function printedAsWritten(text: string, spans: Int32Array, count: number): boolean {
  for (let i = 0; i < count; i++) {
    const token = text.slice(spans[2 * i], spans[2 * i + 1]);
    if (String(Number(token)) !== token) return false;
  }
  return true;
}
