// recordBuffer: bytes read into it verify exactly as the same bytes anywhere else, read where
// they are (the pass in WebAssembly makes no second instance for them), one record after
// another in the same buffer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CORPUS_DIR, corpusOptions, loadCorpus } from '../../../test-support/corpus.js';
import { recordBuffer, verifyJson } from '../src/index.js';
import { WasmPass } from '../src/fast-path/wasm-pass.js';

const optionsOf = corpusOptions;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('recordBuffer', () => {
  it('gives every corpus record, read into one buffer in turn, verifyJson’s result', () => {
    const cases = loadCorpus();
    const largest = Math.max(...cases.map((c) => readFileSync(join(CORPUS_DIR, c.file)).length));
    const buffer = recordBuffer(largest + 1);
    expect(buffer).toBeInstanceOf(Uint8Array);
    if (buffer === undefined) return;
    expect(buffer.length).toBe(largest + 1);
    for (const c of cases) {
      const bytes = readFileSync(join(CORPUS_DIR, c.file));
      const options = optionsOf(c.trust);
      buffer.set(bytes);
      const inPlace = verifyJson(buffer.subarray(0, bytes.length), options);
      // Verifying never writes the buffer: the bytes stay as read.
      expect(Buffer.compare(buffer.subarray(0, bytes.length), bytes), c.file).toBe(0);
      expect(inPlace, c.file).toEqual(verifyJson(new Uint8Array(bytes), options));
      expect(inPlace.verdict, c.file).toBe(c.expected.verdict);
    }
  });

  it('is read where it is: no second instance of the pass, no copy', () => {
    const bytes = readFileSync(join(CORPUS_DIR, 'valid/ed25519-signed.json'));
    const buffer = recordBuffer(bytes.length);
    if (buffer === undefined) throw new Error('expected WebAssembly here');
    buffer.set(bytes);
    const create = vi.spyOn(WasmPass, 'create');
    const load = vi.spyOn(Uint8Array.prototype, 'set');
    const pinned = [readFileSync(join(CORPUS_DIR, 'keys/producer.pub.pem'), 'utf8')];
    expect(verifyJson(buffer, { pinned }).verdict).toBe('valid');
    expect(create).not.toHaveBeenCalled();
    expect(load.mock.calls.some(([source]) => source === buffer)).toBe(false);
    // A view that does not start at the buffer's start is copied, as any other bytes.
    const shifted = recordBuffer(bytes.length + 1);
    if (shifted === undefined) throw new Error('expected WebAssembly here');
    shifted.set(bytes, 1);
    create.mockClear();
    expect(verifyJson(shifted.subarray(1), { pinned }).verdict).toBe('valid');
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('refuses a size that is not a whole number of bytes', () => {
    for (const size of [-1, 1.5, Number.NaN, Infinity, '10' as unknown as number])
      expect(() => recordBuffer(size)).toThrow(TypeError);
  });
});
