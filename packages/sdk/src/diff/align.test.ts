import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignSteps, type Alignable } from './align.js';

const step = (family: string, key = '0'): Alignable & { label: string } => ({
  identity: `${family}:${key}`,
  family,
  label: `${family}:${key}`,
});
const labels = (rows: ReturnType<typeof alignSteps<ReturnType<typeof step>>>) =>
  rows.map((r) =>
    r.kind === 'added'
      ? `+${r.b.label}`
      : r.kind === 'removed'
        ? `-${r.a.label}`
        : `${r.kind === 'same' ? '=' : '~'}${r.a.label}>${r.b.label}`,
  );

describe('alignSteps', () => {
  it('reports an inserted step once, not as a shift of every later step', () => {
    const a = [step('llm'), step('tool:score'), step('tool:income'), step('llm', 'answer')];
    const b = [
      step('llm'),
      step('tool:score'),
      step('tool:fraud'),
      step('tool:income'),
      step('llm', 'answer'),
    ];
    expect(labels(alignSteps(a, b))).toEqual([
      '=llm:0>llm:0',
      '=tool:score:0>tool:score:0',
      '+tool:fraud:0',
      '=tool:income:0>tool:income:0',
      '=llm:answer>llm:answer',
    ]);
  });

  it('pairs a removed and an added step of the same family as one change', () => {
    const a = [step('llm', 'p1'), step('tool:score', 'x')];
    const b = [step('llm', 'p2'), step('tool:score', 'x')];
    expect(labels(alignSteps(a, b))).toEqual(['~llm:p1>llm:p2', '=tool:score:x>tool:score:x']);
  });

  it('keeps steps of different families apart', () => {
    const a = [step('tool:a')];
    const b = [step('tool:b')];
    expect(labels(alignSteps(a, b))).toEqual(['-tool:a:0', '+tool:b:0']);
  });

  const seq = fc.array(
    fc.constantFrom('a', 'b', 'c', 'd').map((f) => step(f)),
    { maxLength: 30 },
  );

  it('aligns a sequence with itself as all same, and covers both sides exactly once', () => {
    fc.assert(
      fc.property(seq, seq, (a, b) => {
        expect(alignSteps(a, a).every((r) => r.kind === 'same')).toBe(true);
        const rows = alignSteps(a, b);
        expect(rows.flatMap((r) => ('a' in r ? [r.a] : []))).toEqual(a);
        expect(rows.flatMap((r) => ('b' in r ? [r.b] : []))).toEqual(b);
      }),
    );
  });

  it('one insertion anywhere gives exactly one added row and no other difference', () => {
    fc.assert(
      fc.property(seq, fc.nat(), (a, at) => {
        const i = a.length === 0 ? 0 : at % (a.length + 1);
        const b = [...a.slice(0, i), step('inserted'), ...a.slice(i)];
        const rows = alignSteps(a, b);
        expect(rows.filter((r) => r.kind !== 'same')).toEqual([{ kind: 'added', b: b[i] }]);
      }),
    );
  });
});
