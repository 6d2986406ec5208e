// The event canonicalizer's pass in WebAssembly (wasm-pass.ts) over a record read whole from
// UTF-8 bytes: it gives the same CanonicalizerResult as EventCanonicalizer.scanArray
// (event-canonicalizer.ts), faster and with no warm-up in a fresh process
// (docs/benchmarks.md), or null, and then the caller runs the JavaScript pass, which decides
// every case the module leaves to it (escapes and numbers it would reprint, escaped names,
// syntax errors, repeated names, deep nesting), or where WebAssembly is not to be had.
import type { CanonicalizerResult } from './event-canonicalizer.js';
import { skipWhitespace } from './lexer.js';
import { WasmPass } from './wasm-pass.js';

const encoder = new TextEncoder();

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
  const first = skipWhitespace(text, at);
  if (text.charCodeAt(first) !== 0x7b /* { */) return null;
  // Where the first event starts in the bytes: the bytes of the text before it (and a byte
  // order mark, when the decoder dropped one).
  let p = first;
  if (input.length !== text.length) {
    const dropped =
      input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf && text.charCodeAt(0) !== 0xfeff;
    p = (dropped ? 3 : 0) + encoder.encode(text.slice(0, first)).length;
  }
  if (input[p] !== 0x7b) return null;
  // Bytes read into a pass's own buffer (recordBuffer) are read where they are.
  const pass = WasmPass.owner(input) ?? WasmPass.create(input.length);
  if (pass === null) return null;
  pass.load(input, text, p - first);
  pass.begin('');
  for (;;) {
    const end = pass.read(p);
    if (end < 0) return null;
    p = pass.nextEvent(end);
    if (p === -2) break;
    if (p < 0) return null;
  }
  return pass.result();
}
