import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMPTY_SHA256 } from './constants.js';
import { sha256Hex as sha256Browser } from './sha256-browser.js';
import { sha256Hex as sha256Node } from './sha256-node.js';

describe('sha256Hex', () => {
  it('hashes the FIPS 180-2 sample messages', () => {
    for (const impl of [sha256Node, sha256Browser]) {
      expect(impl('')).toBe(EMPTY_SHA256);
      expect(impl('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(impl(new Uint8Array(0))).toBe(EMPTY_SHA256);
    }
  });

  it('gives the same digest on Node and in the browser build, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(sha256Browser(s)).toBe(sha256Node(s));
      }),
      { numRuns: 300 },
    );
    expect(sha256Node('\ud800')).toBe(sha256Node('\ufffd'));
  });
});
