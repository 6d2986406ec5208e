// The event canonicalizer's pass (src/fast-path/event-canonicalizer.ts) for record text as
// UTF-8 bytes, in AssemblyScript, compiled to WebAssembly by scripts/build-wasm.js. It reads
// the elements of an events array one call per event: checks each is JSON of the subset
// below, writes its canonical form without `_hash` (docs/spec.md §2, §3) into the output region
// after 64 bytes left for the previous chain hash, and fills the tables the views and the
// cassette read (its top-level members' spans as indexes of the decoded text, the canonical
// bytes of the cassette's members that are not canonical as written, §4.3). The caller hashes
// each event's output.
//
// It answers only for text it can prove canonical as written token by token: strings whose
// escapes are the ones JSON.stringify writes (every other character as its UTF-8, which the
// caller has checked), names without escapes, and numbers whose text is the one
// Number::toString prints: integers of up to 15 digits and decimals of up to 15 significant
// digits with no trailing zero and at least 1e-6 it proves itself (for these the shortest
// round-trip form of RFC 8785 §3.2.2.3 is the text), any other number it lists for the caller
// to print and compare. On anything else (another escape, a syntax error, a repeated name,
// names it cannot order, an object of more than MAX_SORTED members out of order, nesting past
// MAX_DEPTH, a full table) it gives up and the caller
// reads the whole text in JavaScript, which decides and reports every such case. It is called
// once per event, which lets V8 move the module to its optimizing compiler after the first
// events (one long call would run in its baseline compiler throughout, docs/benchmarks.md).

/** Containers nested deeper than this make the pass give up (the JavaScript reader decides). */
const MAX_DEPTH: u32 = 500;
/** Objects out of order with more members than this make the pass give up (see object()). */
const MAX_SORTED: u32 = 64;
/** Bytes left before each event's output for the previous chain hash (64 hex digits). */
const HEAD: u32 = 64;
/**
 * A member stack slot: its output start and end, whether its value is canonical as written,
 * its table row, its name's byte length, whether its name has a byte past ASCII in its first
 * eight, and its sort key (see nameKey).
 */
const SLOT: u32 = 32;

// The layout, set by setup(). Tables are columns of i32, each `cap` entries long.
let inLen: u32 = 0;
let outEnd: u32 = 0;
let tmp: u32 = 0;
let stack: u32 = 0;
let stackCap: u32 = 0;
let events: u32 = 0;
let eventCap: u32 = 0;
let members: u32 = 0;
let memberCap: u32 = 0;
let texts: u32 = 0;
let textCap: u32 = 0;
let result: u32 = 0;
let pending: u32 = 0;
let deferred: u32 = 0;
let deferredCap: u32 = 0;

// The pass's state.
let base: u32 = 0; // where the next event's 64 head bytes start (after the kept texts)
let o: u32 = 0; // the output position
let stackTop: u32 = 0;
let eventCount: u32 = 0;
let memberCount: u32 = 0;
let textCount: u32 = 0;
let pendingCount: u32 = 0;
let failed: bool = false;
let names: u32 = 0;
let deepest: u32 = 0;
let reorders: u32 = 0;
let hashStart: i32 = -1;
let hashEnd: i32 = -1;
let hashByte: i32 = -1;
// Bytes before the read position less the UTF-16 code units they decode to: the text's index
// of byte position b is b - delta. Non-ASCII occurs only inside strings, so between tokens
// delta is that of the last string read.
let delta: i32 = 0;
let sawEscape: bool = false;
let deferredCount: u32 = 0;

/** Sets the layout; the output region is [out, outLimit), the result words at `res`. */
export function setup(
  n: u32,
  out: u32,
  outLimit: u32,
  scratch: u32,
  stackAt: u32,
  stackSlots: u32,
  eventsAt: u32,
  eventSlots: u32,
  membersAt: u32,
  memberSlots: u32,
  textsAt: u32,
  textSlots: u32,
  res: u32,
  pend: u32,
  deferredAt: u32,
  deferredSlots: u32,
  startDelta: i32,
): void {
  delta = startDelta;
  inLen = n;
  base = out;
  outEnd = outLimit;
  tmp = scratch;
  stack = stackAt;
  stackCap = stackSlots;
  events = eventsAt;
  eventCap = eventSlots;
  members = membersAt;
  memberCap = memberSlots;
  texts = textsAt;
  textCap = textSlots;
  result = res;
  pending = pend;
  deferred = deferredAt;
  deferredCap = deferredSlots;
  eventCount = 0;
  memberCount = 0;
  textCount = 0;
  pendingCount = 0;
}

function col(table: u32, cap: u32, c: u32, i: u32): u32 {
  return table + ((c * cap + i) << 2);
}

function fail(): u32 {
  failed = true;
  return 0;
}

function ws(p: u32): u32 {
  // Most tokens follow one another with no whitespace (one test); the indentation after a
  // line feed goes eight spaces at a time.
  if (p >= inLen || load<u8>(p) > 0x20) return p;
  while (p < inLen) {
    const c: u32 = load<u8>(p);
    if (c == 0x0a) {
      p++;
      while (p + 8 <= inLen && load<u64>(p) == 0x2020202020202020) p += 8;
    } else if (c == 0x20 || c == 0x0d || c == 0x09) p++;
    else return p;
  }
  return p;
}

function hexDigit(c: u32): bool {
  return c - 0x30 < 10 || c - 0x61 < 6;
}

// The string whose opening quote is at p: the position after its closing quote. Only the
// escapes JSON.stringify writes are taken: \" \\ \b \f \n \r \t, and \u00xx (lowercase) for the
// other characters below U+0020.
function str(p: u32): u32 {
  sawEscape = false;
  let q = p + 1;
  for (;;) {
    // Eight bytes at a time while none is a quote, a backslash, below 0x20 or above 0x7F.
    while (q + 8 <= inLen) {
      const x = load<u64>(q);
      const qx = x ^ 0x2222222222222222;
      const bx = x ^ 0x5c5c5c5c5c5c5c5c;
      const t =
        ((qx - 0x0101010101010101) & ~qx) |
        ((bx - 0x0101010101010101) & ~bx) |
        (x - 0x2020202020202020) |
        x;
      const m = t & 0x8080808080808080;
      if (m != 0) {
        // The lowest byte flagged is the first that is special (a borrow only ever flags bytes
        // above one that is).
        q += <u32>(ctz<u64>(m) >> 3);
        break;
      }
      q += 8;
    }
    if (q >= inLen) return fail();
    const c: u32 = load<u8>(q);
    if (c == 0x22) return q + 1;
    if (c < 0x20) return fail();
    if (c >= 0x80) {
      // UTF-8 the caller has decoded strictly, so well formed: each continuation byte is one
      // byte more than its character's code units, and a four-byte character is two units.
      if (c < 0xc0) delta++;
      else if (c >= 0xf0) delta--;
      q++;
      continue;
    }
    if (c == 0x5c) {
      sawEscape = true;
      if (q + 1 >= inLen) return fail();
      const e: u32 = load<u8>(q + 1);
      if (e == 0x22 || e == 0x5c || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 || e == 0x74) {
        q += 2;
        continue;
      }
      if (e != 0x75 || q + 5 >= inLen) return fail();
      if (load<u8>(q + 2) != 0x30 || load<u8>(q + 3) != 0x30) return fail();
      const h: u32 = load<u8>(q + 4);
      const l: u32 = load<u8>(q + 5);
      if ((h != 0x30 && h != 0x31) || !hexDigit(l)) return fail();
      const code = (h - 0x30) * 16 + (l < 0x61 ? l - 0x30 : l - 0x61 + 10);
      // These have a short form, which JSON.stringify writes instead.
      if (code == 0x08 || code == 0x09 || code == 0x0a || code == 0x0c || code == 0x0d)
        return fail();
      q += 6;
      continue;
    }
    q++;
  }
  return fail(); // not reached: the loop returns
}

function digit(c: u32): bool {
  return c - 0x30 < 10;
}

// The number at p (RFC 8259 §6): the position after it. When the fast rule below cannot show
// that it is written as Number::toString prints it (docs/spec.md §2), its span is listed for
// the caller, which prints it to decide (a longer decimal, an exponent, -0).
function num(p: u32): u32 {
  let q = p;
  const negative = load<u8>(q) == 0x2d;
  if (negative) q++;
  const intStart = q;
  if (q >= inLen || !digit(load<u8>(q))) return fail();
  if (load<u8>(q) == 0x30) q++;
  else while (q < inLen && digit(load<u8>(q))) q++;
  const intLen = q - intStart;
  const zero = intLen == 1 && load<u8>(intStart) == 0x30;
  let significant = intLen;
  let proven = !(zero && negative);
  if (q < inLen && load<u8>(q) == 0x2e) {
    q++;
    const f = q;
    while (q < inLen && digit(load<u8>(q))) q++;
    if (q == f) return fail();
    if (load<u8>(q - 1) == 0x30) proven = false;
    if (zero) {
      let lead: u32 = 0;
      while (f + lead < q && load<u8>(f + lead) == 0x30) lead++;
      if (lead > 5) proven = false; // below 1e-6 it prints with an exponent
      significant = q - f - lead;
    } else significant += q - f;
  }
  if (q < inLen && (load<u8>(q) | 0x20) == 0x65) {
    q++;
    if (q < inLen && (load<u8>(q) == 0x2b || load<u8>(q) == 0x2d)) q++;
    const e = q;
    while (q < inLen && digit(load<u8>(q))) q++;
    if (q == e) return fail();
    proven = false;
  }
  if (significant > 15) proven = false;
  if (!proven) {
    if (deferredCount >= deferredCap) return fail();
    store<i32>(deferred + (deferredCount << 3), <i32>p - delta);
    store<i32>(deferred + (deferredCount << 3) + 4, <i32>q - delta);
    deferredCount++;
  }
  return q;
}

// Copies [s, e) to the output. Up to 16 bytes go as two 8-byte words whatever the length: the
// bytes written past the span's end are overwritten by the next write (the output only grows
// within an event) or lie in the slack the layout leaves after the output, and
// the reads past the input's end fall in the 16 bytes before the output begins.
function copy(s: u32, e: u32): void {
  const n = e - s;
  if (n <= 16) {
    store<u64>(o, load<u64>(s));
    store<u64>(o + 8, load<u64>(s + 8));
  } else memory.copy(o, s, n);
  o += n;
}

// A name's sort key: its first eight bytes as a big-endian number, zeros past its end. Keys
// order names as their bytes do; a name cannot hold a zero byte (a control character is
// escaped, and an escaped name is left to JavaScript), so a shorter name that is a prefix of
// a longer one has the smaller key. Names whose keys are equal are compared whole.
function nameKey(s: u32, n: u32): u64 {
  let x = load<u64>(s);
  if (n < 8) x &= ((<u64>1) << ((<u64>n) << 3)) - 1;
  return bswap<u64>(x);
}

// Orders the members of two stack slots by name (see compareNames): the keys, when neither
// name has a byte past ASCII among them, else the names whole. Static methods only so that
// @inline (which the sort's loops need: a call there cost 14 % of the pass) is a decorator
// TypeScript's grammar has too.
class Slots {
  @inline static order(a: u32, b: u32): i32 {
    return Slots.orderTo(a, load<u32>(b), load<u32>(b + 16), load<u32>(b + 20), load<u64>(b + 24));
  }

  // order() against a slot given by its fields: its output start, name length, flag and key.
  @inline static orderTo(a: u32, bStart: u32, bBytes: u32, bFlag: u32, bKey: u64): i32 {
    if ((load<u32>(a + 20) | bFlag) == 0) {
      const x = load<u64>(a + 24);
      if (x < bKey) return -1;
      if (x > bKey) return 1;
      if (load<u32>(a + 16) <= 8 && bBytes <= 8) return 0;
    }
    return compareNames(load<u32>(a), bStart);
  }
}

// Compares the names of two members as written in the output (each starts with its quote):
// negative, zero or positive, in UTF-16 code unit order (RFC 8785 §3.2.3). UTF-8 bytes sort as
// code points, which is that order except between a character past U+FFFF (a lead byte from
// 0xF0) and one from U+E000 to U+FFFF (0xEE, 0xEF): that case is left to JavaScript.
function compareNames(a: u32, b: u32): i32 {
  let i: u32 = 1;
  for (;;) {
    const x: u32 = load<u8>(a + i);
    const y: u32 = load<u8>(b + i);
    if (x != y) {
      if (x == 0x22) return -1;
      if (y == 0x22) return 1;
      if ((x >= 0xf0 && y >= 0xee && y < 0xf0) || (y >= 0xf0 && x >= 0xee && x < 0xf0)) {
        failed = true;
        return 1;
      }
      return x < y ? -1 : 1;
    }
    if (x == 0x22) return 0;
    i++;
  }
  return 0; // not reached: the loop returns
}

// Writes the canonical form of the value at p; the position after it. `verbatimValue` tells
// whether the output is the input span as it stands.
let verbatimValue: bool = true;

function value(p: u32, depth: u32): u32 {
  const c: u32 = load<u8>(p);
  if (c == 0x22) {
    const e = str(p);
    if (failed) return 0;
    copy(p, e);
    verbatimValue = true;
    return e;
  }
  if (c == 0x7b) return object(p, depth + 1, false);
  if (c == 0x5b) return array(p, depth + 1);
  verbatimValue = true;
  if (c == 0x74) {
    if (p + 4 > inLen || load<u32>(p) != 0x65757274) return fail();
    store<u32>(o, 0x65757274);
    o += 4;
    return p + 4;
  }
  if (c == 0x66) {
    if (p + 5 > inLen || load<u32>(p + 1) != 0x65736c61) return fail();
    copy(p, p + 5);
    return p + 5;
  }
  if (c == 0x6e) {
    if (p + 4 > inLen || load<u32>(p) != 0x6c6c756e) return fail();
    store<u32>(o, 0x6c6c756e);
    o += 4;
    return p + 4;
  }
  const e = num(p);
  if (failed) return 0;
  copy(p, e);
  return e;
}

function array(p: u32, depth: u32): u32 {
  if (depth > MAX_DEPTH) return fail();
  if (depth > deepest) deepest = depth;
  const start = o;
  const reordersBefore = reorders;
  store<u8>(o++, 0x5b);
  let q = ws(p + 1);
  if (q >= inLen) return fail();
  if (load<u8>(q) == 0x5d) {
    store<u8>(o++, 0x5d);
    verbatimValue = o - start == q + 1 - p;
    return q + 1;
  }
  for (;;) {
    q = value(q, depth);
    if (failed) return 0;
    q = ws(q);
    if (q >= inLen) return fail();
    const d = load<u8>(q);
    if (d == 0x2c) {
      store<u8>(o++, 0x2c);
      q = ws(q + 1);
      if (q >= inLen) return fail();
      continue;
    }
    if (d != 0x5d) return fail();
    store<u8>(o++, 0x5d);
    verbatimValue = reorders == reordersBefore && o - start == q + 1 - p;
    return q + 1;
  }
}

// An object: its members written in input order, then put in order by name with one copy
// through the scratch area when they were not. At the top (the event), _hash is left out, and
// the members' rows are written to the tables.
function object(p: u32, depth: u32, top: bool): u32 {
  if (depth > MAX_DEPTH) return fail();
  if (depth > deepest) deepest = depth;
  const start = o;
  const reordersBefore = reorders;
  store<u8>(o++, 0x7b);
  let q = ws(p + 1);
  if (q >= inLen) return fail();
  const first = stackTop;
  let sorted = true;
  let written: u32 = 0;
  if (load<u8>(q) != 0x7d) {
    for (;;) {
      if (load<u8>(q) != 0x22) return fail();
      const nameIndex = <i32>q + 1 - delta;
      const nameEnd = str(q);
      if (failed) return 0;
      if (sawEscape) return fail(); // an escaped name sorts by its unescaped text: JavaScript's
      names++;
      let v = ws(nameEnd);
      if (v >= inLen || load<u8>(v) != 0x3a) return fail();
      v = ws(v + 1);
      if (v >= inLen) return fail();
      const isHash =
        top &&
        nameEnd - q == 7 &&
        load<u32>(q + 1) == 0x7361685f && // "_has"
        load<u8>(q + 5) == 0x68; // "h"
      let row: i32 = -1;
      if (top) {
        if (memberCount >= memberCap) return fail();
        row = <i32>memberCount;
        memberCount++;
        store<i32>(col(members, memberCap, 0, row), nameIndex);
        store<i32>(col(members, memberCap, 1, row), <i32>nameEnd - 1 - delta);
        store<i32>(col(members, memberCap, 2, row), <i32>v - delta);
        store<i32>(col(members, memberCap, 4, row), -1);
      }
      if (isHash) {
        if (hashStart >= 0) return fail(); // a second _hash: the JavaScript reader reports it
        const saved = o;
        q = value(v, depth);
        if (failed) return 0;
        o = saved;
        hashStart = <i32>v - delta;
        hashEnd = <i32>q - delta;
        hashByte = v;
        if (!verbatimValue) store<i32>(col(members, memberCap, 4, row), -2);
      } else {
        if (written > 0) store<u8>(o++, 0x2c);
        const memberOut = o;
        const memberNameBytes = nameEnd - q - 2;
        copy(q, nameEnd);
        store<u8>(o++, 0x3a);
        q = value(v, depth);
        if (failed) return 0;
        if (stackTop >= stackCap) return fail();
        const slot = stack + stackTop * SLOT;
        store<u32>(slot, memberOut);
        store<u32>(slot + 4, o);
        store<u32>(slot + 8, verbatimValue ? 1 : 0);
        store<i32>(slot + 12, row);
        store<u32>(slot + 16, memberNameBytes);
        const key = nameKey(memberOut + 1, memberNameBytes);
        store<u32>(slot + 20, <u32>((key & 0x8080808080808080) != 0));
        store<u64>(slot + 24, key);
        if (written > 0) {
          const c = Slots.order(slot - SLOT, slot);
          if (failed || c == 0) return fail();
          if (c > 0) sorted = false;
        }
        stackTop++;
        written++;
      }
      if (top) store<i32>(col(members, memberCap, 3, row), <i32>q - delta);
      q = ws(q);
      if (q >= inLen) return fail();
      const d = load<u8>(q);
      if (d == 0x2c) {
        q = ws(q + 1);
        if (q >= inLen) return fail();
        continue;
      }
      if (d != 0x7d) return fail();
      break;
    }
  }
  q++;
  if (!sorted) {
    // Insertion sort of the slots by name: quadratic, so only for objects of a few members
    // (a larger one out of order goes to JavaScript, whose sort is not).
    if (stackTop - first > MAX_SORTED) return fail();
    reorders++;
    for (let i = first + 1; i < stackTop; i++) {
      const at = stack + i * SLOT;
      const c = Slots.order(at - SLOT, at);
      if (failed || c == 0) return fail();
      if (c < 0) continue;
      // The slot being placed, held in locals while the ones before it move up.
      const w0 = load<u64>(at);
      const w1 = load<u64>(at + 8);
      const w2 = load<u64>(at + 16);
      const w3 = load<u64>(at + 24);
      const heldStart = <u32>w0;
      const heldBytes = <u32>w2;
      const heldFlag = <u32>(w2 >> 32);
      let j = i;
      for (;;) {
        const before = stack + (j - 1) * SLOT;
        store<u64>(before + SLOT, load<u64>(before));
        store<u64>(before + SLOT + 8, load<u64>(before + 8));
        store<u64>(before + SLOT + 16, load<u64>(before + 16));
        store<u64>(before + SLOT + 24, load<u64>(before + 24));
        j--;
        if (j == first) break;
        const d = Slots.orderTo(before - SLOT, heldStart, heldBytes, heldFlag, w3);
        if (failed || d == 0) return fail();
        if (d < 0) break;
      }
      const to = stack + j * SLOT;
      store<u64>(to, w0);
      store<u64>(to + 8, w1);
      store<u64>(to + 16, w2);
      store<u64>(to + 24, w3);
    }
    const from = start + 1;
    memory.copy(tmp, from, o - from);
    o = from;
    for (let i = first; i < stackTop; i++) {
      if (i > first) store<u8>(o++, 0x2c);
      const at = stack + i * SLOT;
      const s = load<u32>(at);
      const e = load<u32>(at + 4);
      const n = e - s;
      // Up to 32 bytes as four 8-byte words, whatever the length (as in copy(): the next
      // write or the 32 bytes of slack after the output take the rest); a longer member
      // through memory.copy, which V8 runs as a call out of the module.
      const src = tmp + (s - from);
      if (n <= 32) {
        store<u64>(o, load<u64>(src));
        store<u64>(o + 8, load<u64>(src + 8));
        store<u64>(o + 16, load<u64>(src + 16));
        store<u64>(o + 24, load<u64>(src + 24));
      } else memory.copy(o, src, n);
      store<u32>(at, o);
      store<u32>(at + 4, o + n);
      o += n;
    }
  }
  store<u8>(o++, 0x7d);
  if (top) {
    // The cassette's members whose value is not canonical as written: their canonical bytes
    // are kept (the next call moves them to the front), in output order.
    for (let i = first; i < stackTop; i++) {
      const at = stack + i * SLOT;
      const row = load<i32>(at + 12);
      if (load<u32>(at + 8) == 1) continue;
      // The name as written in the output: its quote, its bytes, the closing quote and colon.
      const nameBytes = load<u32>(at + 16);
      if (!isCassetteName(load<u32>(at) + 1, nameBytes)) {
        store<i32>(col(members, memberCap, 4, row), -2);
        continue;
      }
      const valueOut = load<u32>(at) + nameBytes + 3;
      const p3 = pending + pendingCount * 12;
      store<i32>(p3, row);
      store<u32>(p3 + 4, valueOut);
      store<u32>(p3 + 8, load<u32>(at + 4));
      pendingCount++;
    }
  } else {
    verbatimValue = reorders == reordersBefore && o - start == q - p;
  }
  stackTop = first;
  return q;
}

// input, output, request, response: the members the cassette reads (docs/spec.md §4.3).
function isCassetteName(s: u32, n: u32): bool {
  if (n == 5) return load<u32>(s) == 0x75706e69 && load<u8>(s + 4) == 0x74; // input
  if (n == 6) return load<u32>(s) == 0x7074756f && load<u16>(s + 4) == 0x7475; // output
  if (n == 7) return load<u32>(s) == 0x75716572 && load<u32>(s + 3) == 0x74736575; // request
  if (n == 8) return load<u64>(s) == 0x65736e6f70736572; // response
  return false;
}

// Moves the last event's kept values to the front of the output, one after another.
function keepPending(): void {
  for (let i: u32 = 0; i < pendingCount; i++) {
    const p3 = pending + i * 12;
    const row = load<i32>(p3);
    const s = load<u32>(p3 + 4);
    const e = load<u32>(p3 + 8);
    if (base != s) memory.copy(base, s, e - s);
    store<i32>(col(texts, textCap, 0, textCount), base);
    store<i32>(col(texts, textCap, 1, textCount), base + (e - s));
    store<i32>(col(members, memberCap, 4, row), textCount);
    textCount++;
    base += e - s;
  }
  pendingCount = 0;
}

/**
 * Reads the event whose `{` is at `at`: the position after it, or -1 when the pass gives up.
 * Its output is [result[0], result[1]) with 64 bytes before it for the caller's head; its
 * stored _hash value is [result[2], result[3]) (-1: none); result[4] numbers whose spans are
 * listed at `deferred` (start, end) are the caller's to check.
 */
export function readEvent(at: u32): i32 {
  keepPending();
  if (eventCount >= eventCap || textCount + 4 > textCap) return -1;
  if (at >= inLen || load<u8>(at) != 0x7b) return -1;
  failed = false;
  names = 0;
  deepest = 0;
  hashStart = -1;
  hashEnd = -1;
  hashByte = -1;
  stackTop = 0;
  deferredCount = 0;
  const k = eventCount;
  const startIndex = <i32>at - delta;
  store<i32>(col(events, eventCap, 4, k), memberCount);
  o = base + HEAD;
  const outStart = o;
  const end = object(at, 1, true);
  if (failed || o > outEnd) return -1;
  store<i32>(col(events, eventCap, 0, k), startIndex);
  store<i32>(col(events, eventCap, 1, k), <i32>end - delta);
  store<i32>(col(events, eventCap, 2, k), names);
  store<i32>(col(events, eventCap, 3, k), deepest);
  eventCount++;
  store<i32>(col(events, eventCap, 4, eventCount), memberCount);
  store<u32>(result, outStart);
  store<u32>(result + 4, o);
  store<i32>(result + 8, hashStart);
  store<i32>(result + 12, hashEnd);
  store<u32>(result + 16, deferredCount);
  store<i32>(result + 20, hashByte);
  return end;
}

/** After an event ending at `p`: the next one's start, -2 at the array's `]`, -1 otherwise. */
export function nextEvent(p: u32): i32 {
  const q = ws(p);
  if (q >= inLen) return -1;
  const c = load<u8>(q);
  if (c == 0x5d) return -2;
  if (c != 0x2c) return -1;
  const r = ws(q + 1);
  return r < inLen ? <i32>r : -1;
}

/** Ends the pass: keeps the last event's values; how many texts were kept. */
export function finish(): u32 {
  keepPending();
  return textCount;
}

/** The bytes of one member stack slot, for the caller's layout. */
export function stackSlotBytes(): u32 {
  return SLOT;
}
