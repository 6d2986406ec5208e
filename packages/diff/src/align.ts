// Aligning two step sequences so that an inserted or removed step reports once, instead of
// shifting every step after it. The matched steps are a shortest edit script over the steps'
// identities (kind, name and replay key), found with jsdiff's Myers O(ND) diff, which needs
// memory linear in the inputs rather than the n·m table of a textbook LCS. Then, inside each
// gap between matched steps, removed and added steps of the same kind and name are paired as
// one changed step (a tool called with new input is one change, not a removal and an addition).
import { diffArrays } from 'diff';

/** What the aligner compares steps by. */
export interface Alignable {
  /** kind + name + key: equal identities match. */
  readonly identity: string;
  /** kind + name: unmatched steps with equal families pair up as changes. */
  readonly family: string;
}

/** One row of an alignment. */
export type Aligned<T> =
  | { readonly kind: 'same'; readonly a: T; readonly b: T }
  | { readonly kind: 'changed'; readonly a: T; readonly b: T }
  | { readonly kind: 'removed'; readonly a: T }
  | { readonly kind: 'added'; readonly b: T };

/** Options of {@link alignSteps}. */
export interface AlignOptions {
  /**
   * The most edits (removed plus added steps, after the common head and tail) the diff
   * searches for. Myers' time grows with n·D and its working set with D², so two runs that
   * share almost nothing are not searched: they align as one gap, paired by family, which is
   * also what a full search finds when no identity matches. Default 2,000.
   */
  readonly maxEdits?: number;
}

const DEFAULT_MAX_EDITS = 2_000;

/** Aligns `a` with `b` in memory linear in their lengths. */
export function alignSteps<T extends Alignable>(
  a: readonly T[],
  b: readonly T[],
  options: AlignOptions = {},
): Aligned<T>[] {
  const maxEdits = options.maxEdits ?? DEFAULT_MAX_EDITS;
  if (!Number.isSafeInteger(maxEdits) || maxEdits < 0) {
    throw new TypeError(
      `options.maxEdits: expected a non-negative integer, got ${JSON.stringify(maxEdits) ?? typeof maxEdits}`,
    );
  }
  const rows: Aligned<T>[] = [];
  // The common head and tail are matched directly: the diff then only sees the middle.
  let head = 0;
  while (head < a.length && head < b.length && at(a, head).identity === at(b, head).identity) {
    rows.push({ kind: 'same', a: at(a, head), b: at(b, head) });
    head++;
  }
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    at(a, a.length - 1 - tail).identity === at(b, b.length - 1 - tail).identity
  ) {
    tail++;
  }
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  rows.push(...alignMiddle(midA, midB, maxEdits));
  for (let k = tail; k > 0; k--) {
    rows.push({ kind: 'same', a: at(a, a.length - k), b: at(b, b.length - k) });
  }
  return rows;
}

function alignMiddle<T extends Alignable>(a: T[], b: T[], maxEdits: number): Aligned<T>[] {
  if (a.length === 0 || b.length === 0) return pairGap(a, b);
  const changes = diffArrays(
    a.map((step) => step.identity),
    b.map((step) => step.identity),
    { maxEditLength: maxEdits },
  );
  if (changes === undefined) return pairGap(a, b);
  const rows: Aligned<T>[] = [];
  let gapA: T[] = [];
  let gapB: T[] = [];
  let i = 0;
  let j = 0;
  for (const change of changes) {
    const count = change.value.length;
    if (change.removed) {
      gapA.push(...a.slice(i, i + count));
      i += count;
    } else if (change.added) {
      gapB.push(...b.slice(j, j + count));
      j += count;
    } else {
      rows.push(...pairGap(gapA, gapB));
      gapA = [];
      gapB = [];
      for (let k = 0; k < count; k++) rows.push({ kind: 'same', a: at(a, i + k), b: at(b, j + k) });
      i += count;
      j += count;
    }
  }
  rows.push(...pairGap(gapA, gapB));
  return rows;
}

/**
 * Within one gap: each removed step, in order, pairs with the first added step of its family
 * after the last pairing; added steps it passes over are reported as added. Linear time: each
 * family's added positions are walked forward once.
 */
export function pairGap<T extends Alignable>(
  removed: readonly T[],
  added: readonly T[],
): Aligned<T>[] {
  const byFamily = new Map<string, { positions: number[]; next: number }>();
  added.forEach((step, index) => {
    const entry = byFamily.get(step.family);
    if (entry === undefined) byFamily.set(step.family, { positions: [index], next: 0 });
    else entry.positions.push(index);
  });
  const rows: Aligned<T>[] = [];
  let k = 0;
  for (const step of removed) {
    const entry = byFamily.get(step.family);
    let match = -1;
    if (entry !== undefined) {
      while (entry.next < entry.positions.length && (entry.positions[entry.next] as number) < k) {
        entry.next++;
      }
      if (entry.next < entry.positions.length) match = entry.positions[entry.next] as number;
    }
    if (match === -1) {
      rows.push({ kind: 'removed', a: step });
      continue;
    }
    for (; k < match; k++) rows.push({ kind: 'added', b: at(added, k) });
    rows.push({ kind: 'changed', a: step, b: at(added, match) });
    k = match + 1;
  }
  for (; k < added.length; k++) rows.push({ kind: 'added', b: at(added, k) });
  return rows;
}

function at<T>(list: readonly T[], index: number): T {
  return list[index] as T;
}
