import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignSteps, pairGap, type Alignable } from './align.js';

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

  /** The length of a longest common subsequence of identities: the textbook table. */
  const lcsLength = (a: readonly Alignable[], b: readonly Alignable[]) => {
    let row = new Array<number>(b.length + 1).fill(0);
    for (const x of a) {
      const next = [0];
      b.forEach((y, j) =>
        next.push(
          x.identity === y.identity
            ? (row[j] as number) + 1
            : Math.max(row[j + 1] as number, next[j] as number),
        ),
      );
      row = next;
    }
    return row[b.length] as number;
  };

  it('matches as many steps as a longest common subsequence does', () => {
    fc.assert(
      fc.property(seq, seq, (a, b) => {
        expect(alignSteps(a, b).filter((r) => r.kind === 'same')).toHaveLength(lcsLength(a, b));
      }),
    );
  });

  it('past maxEdits, aligns the middle as one gap paired by family, still covering both sides', () => {
    const a = [step('llm', 'h'), step('tool:x', '1'), step('tool:y', '1'), step('llm', 't')];
    const b = [step('llm', 'h'), step('tool:y', '1'), step('tool:x', '2'), step('llm', 't')];
    expect(labels(alignSteps(a, b))).toEqual([
      '=llm:h>llm:h',
      '-tool:x:1',
      '=tool:y:1>tool:y:1',
      '+tool:x:2',
      '=llm:t>llm:t',
    ]);
    expect(labels(alignSteps(a, b, { maxEdits: 1 }))).toEqual([
      '=llm:h>llm:h',
      '+tool:y:1',
      '~tool:x:1>tool:x:2',
      '-tool:y:1',
      '=llm:t>llm:t',
    ]);
    expect(() => alignSteps(a, b, { maxEdits: -1 })).toThrow(
      'options.maxEdits: expected a non-negative integer, got -1',
    );
  });

  it('pairGap pairs each removed step with the next added step of its family, in order', () => {
    // The quadratic definition, written plainly, as the reference.
    const reference = (removed: ReturnType<typeof step>[], added: ReturnType<typeof step>[]) => {
      const out: string[] = [];
      let k = 0;
      for (const r of removed) {
        const m = added.findIndex((c, index) => index >= k && c.family === r.family);
        if (m === -1) {
          out.push(`-${r.label}`);
          continue;
        }
        for (; k < m; k++) out.push(`+${(added[k] as ReturnType<typeof step>).label}`);
        out.push(`~${r.label}>${(added[m] as ReturnType<typeof step>).label}`);
        k = m + 1;
      }
      for (; k < added.length; k++) out.push(`+${(added[k] as ReturnType<typeof step>).label}`);
      return out;
    };
    const keyed = fc.array(
      fc
        .tuple(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('1', '2'))
        .map(([f, k]) => step(f, k)),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(keyed, keyed, (removed, added) => {
        expect(labels(pairGap(removed, added))).toEqual(reference(removed, added));
      }),
    );
  });
});
