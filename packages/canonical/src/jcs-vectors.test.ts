// RFC 8785 conformance: cyberphone/json-canonicalization testdata (input → output, exact
// bytes) and the ES6 number sample (IEEE 754 bits → ECMAScript form), from ../shared/vectors.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVector, sharedVectorsDir } from '../../../test-support/vectors.js';
import { canonical } from './canonical.js';

const dir = sharedVectorsDir();
const suite = dir ? describe : describe.skip;

suite('RFC 8785 reference pairs (cyberphone testdata)', () => {
  const root = dir ?? '';
  const names = dir
    ? readdirSync(join(root, 'jcs', 'input')).filter((n) => n.endsWith('.json'))
    : [];

  it('has the six reference inputs', () => {
    expect(names.sort()).toEqual([
      'arrays.json',
      'french.json',
      'structures.json',
      'unicode.json',
      'values.json',
      'weird.json',
    ]);
  });

  for (const name of names) {
    it(`${name} canonicalizes byte for byte`, () => {
      const input: unknown = JSON.parse(readVector(root, 'jcs', 'input', name));
      const expected = readVector(root, 'jcs', 'output', name);
      expect(canonical(input)).toBe(expected);
      const hex = readVector(root, 'jcs', 'outhex', name.replace(/\.json$/, '.txt'));
      const expectedHex = hex.replace(/\s+/g, '').toLowerCase();
      expect(Buffer.from(canonical(input), 'utf8').toString('hex')).toBe(expectedHex);
    });
  }

  it('writes every number of the ES6 sample in its expected form', () => {
    const lines = readVector(root, 'jcs', 'es6numbers_first1000.txt').split('\n').filter(Boolean);
    expect(lines.length).toBe(1000);
    const view = new DataView(new ArrayBuffer(8));
    let checked = 0;
    for (const line of lines) {
      const [bits, expected] = line.split(',') as [string, string];
      view.setBigUint64(0, BigInt('0x' + bits.padStart(16, '0')));
      const value = view.getFloat64(0);
      if (!Number.isFinite(value)) {
        expect(() => canonical(value)).toThrow(TypeError);
      } else {
        expect(canonical(value)).toBe(expected);
      }
      checked++;
    }
    expect(checked).toBe(1000);
  });
});
