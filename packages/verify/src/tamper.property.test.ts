// Property: any single mutation of a signed record's events, summary or manifest yields
// `invalid` or `unverified`, never `valid` (docs/spec.md §1, §5).
//
// Events are fully covered: any value replaced, any member deleted or added. The summary and the
// manifest are covered where the format binds them (§5.2, §5.4–5.6): those members are replaced
// with a different value. Informational members (generated_at, key_id, replay.note…) are not
// bound by anything, and deleting an optional summary member leaves a true, if terser, summary;
// spec §1 says so, so neither is a mutation this property is about.
import { canonical } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HMAC_KEY, PEM, sealedLoanRecord, viaJson } from '../test/support/fixtures.js';
import { verify } from './verify.js';

type Path = (string | number)[];
type Json = Record<string, unknown>;

/** Every path to a value below `value` (containers and leaves), prefixed with `prefix`. */
function pathsBelow(value: unknown, prefix: Path): Path[] {
  const out: Path[] = [];
  const walk = (v: unknown, path: Path): void => {
    out.push(path);
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
    else if (v !== null && typeof v === 'object')
      for (const k of Object.keys(v)) walk((v as Json)[k], [...path, k]);
  };
  walk(value, prefix);
  return out.filter((p) => p.length > prefix.length);
}

const BOUND_SUMMARY: Path[] = [
  ['run', 'run_id'],
  ['run', 'name'],
  ['run', 'status'],
  ['run', 'started_at'],
  ['run', 'ended_at'],
  ['run', 'output'],
  ['manifest', 'run_id'],
  ['manifest', 'event_count'],
  ['manifest', 'algorithm'],
  ['manifest', 'content_digest'],
  ['manifest', 'replay', 'cassette_digest'],
  ['manifest', 'replay', 'entry_count'],
  ['manifest', 'replay', 'algorithm'],
  ['manifest', 'signed'],
  ['manifest', 'signature', 'alg'],
  ['manifest', 'signature', 'value'],
];

function parentOf(record: Json, path: Path): { parent: Json | unknown[]; key: string | number } {
  let node: unknown = record;
  for (const step of path.slice(0, -1)) node = (node as Json)[step as string];
  return { parent: node as Json, key: path[path.length - 1] as string | number };
}

function get(record: Json, path: Path): unknown {
  const { parent, key } = parentOf(record, path);
  return (parent as Json)[key as string];
}

const differentValue = (old: unknown) =>
  fc.jsonValue({ maxDepth: 2 }).filter((v) => canonical(v) !== canonical(old));

describe('tampering property', () => {
  for (const [label, signer, trust] of [
    ['Ed25519', undefined, { pinned: [PEM.current] }],
    ['HMAC-SHA256', { alg: 'HMAC-SHA256' as const, key: HMAC_KEY }, { hmacKey: HMAC_KEY }],
  ] as const) {
    const original = viaJson(
      signer === undefined ? sealedLoanRecord() : sealedLoanRecord(signer),
    ) as unknown as Json;
    const eventPaths = pathsBelow(original['events'], ['events']);

    it(`${label}: the unmodified record is valid (the property is not vacuous)`, () => {
      expect(verify(viaJson(original), trust).verdict).toBe('valid');
    });

    it(`${label}: replacing any value inside the events is never valid`, () => {
      fc.assert(
        fc.property(
          fc
            .nat(eventPaths.length - 1)
            .chain((i) =>
              fc.tuple(
                fc.constant(eventPaths[i] as Path),
                differentValue(get(original, eventPaths[i] as Path)),
              ),
            ),
          ([path, value]) => {
            const record = viaJson(original);
            const { parent, key } = parentOf(record, path);
            (parent as Json)[key as string] = value;
            expect(verify(record, trust).verdict).not.toBe('valid');
          },
        ),
        { numRuns: 300 },
      );
    });

    it(`${label}: deleting any member or element of the events is never valid`, () => {
      fc.assert(
        fc.property(fc.nat(eventPaths.length - 1), (i) => {
          const record = viaJson(original);
          const { parent, key } = parentOf(record, eventPaths[i] as Path);
          if (Array.isArray(parent)) parent.splice(key as number, 1);
          else delete parent[key as string];
          expect(verify(record, trust).verdict).not.toBe('valid');
        }),
        { numRuns: 200 },
      );
    });

    it(`${label}: adding a member to any event object is never valid`, () => {
      const objectPaths = [['events'] as Path, ...eventPaths].filter((p) => {
        const v = get(original, p);
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      });
      fc.assert(
        fc.property(
          fc.constantFrom(...objectPaths),
          fc.string(),
          fc.jsonValue({ maxDepth: 1 }),
          (path, name, value) => {
            const record = viaJson(original);
            const target = get(record, path) as Json;
            fc.pre(!Object.prototype.hasOwnProperty.call(target, name));
            Object.defineProperty(target, name, {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
            expect(verify(record, trust).verdict).not.toBe('valid');
          },
        ),
        { numRuns: 200 },
      );
    });

    it(`${label}: reordering or duplicating events is never valid`, () => {
      const count = (original['events'] as unknown[]).length;
      fc.assert(
        fc.property(fc.nat(count - 1), fc.nat(count - 1), fc.boolean(), (i, j, duplicate) => {
          fc.pre(duplicate || i !== j);
          const record = viaJson(original);
          const events = record['events'] as unknown[];
          if (duplicate) events.splice(j, 0, viaJson(events[i]));
          else [events[i], events[j]] = [events[j], events[i]];
          expect(verify(record, trust).verdict).not.toBe('valid');
        }),
        { numRuns: 150 },
      );
    });

    it(`${label}: replacing any bound summary or manifest member is never valid`, () => {
      const bound = BOUND_SUMMARY.filter((p) => get(original, p) !== undefined);
      expect(bound.length).toBeGreaterThanOrEqual(label === 'Ed25519' ? 16 : 15);
      fc.assert(
        fc.property(
          fc
            .constantFrom(...bound)
            .chain((p) => fc.tuple(fc.constant(p), differentValue(get(original, p)))),
          ([path, value]) => {
            const record = viaJson(original);
            const { parent, key } = parentOf(record, path);
            (parent as Json)[key as string] = value;
            expect(verify(record, trust).verdict).not.toBe('valid');
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});
