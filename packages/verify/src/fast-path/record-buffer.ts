// A buffer to read a record's bytes into that the pass in WebAssembly reads where they are
// (wasm-pass.ts: the start of its own memory), sparing verifyJson a copy of the whole record.
import { WasmPass } from './wasm-pass.js';

/**
 * A buffer for the bytes of a record of up to `size` bytes that verifyJson then reads without
 * copying them (verifyJson reads any Uint8Array; this one, or a view of its start, spares it
 * one copy of the record into the WebAssembly pass's memory). Undefined where WebAssembly is
 * not to be had. Verifying never writes the buffer: its bytes stay as read, and results do
 * not refer to it, so it may be refilled with the next record.
 */
export function recordBuffer(size: number): Uint8Array | undefined {
  if (!Number.isSafeInteger(size) || size < 0)
    throw new TypeError(`expected size to be a whole number of bytes >= 0, got ${String(size)}`);
  return WasmPass.create(size)?.buffer();
}
