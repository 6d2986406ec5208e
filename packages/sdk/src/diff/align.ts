// Aligning two step sequences so that an inserted or removed step reports once, instead of
// shifting every step after it: a longest common subsequence over the steps' identities
// (kind, name and replay key), then, inside each gap between matched steps, removed and added
// steps of the same kind and name are paired as one changed step (a tool called with new
// input is one change, not a removal and an addition).

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

/** Aligns `a` with `b`. O(n·m) time and memory: fine for the thousands of steps of a run. */
export function alignSteps<T extends Alignable>(a: readonly T[], b: readonly T[]): Aligned<T>[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the LCS length of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        (a[i] as T).identity === (b[j] as T).identity
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  const rows: Aligned<T>[] = [];
  let gapA: T[] = [];
  let gapB: T[] = [];
  const flush = () => {
    rows.push(...pairGap(gapA, gapB));
    gapA = [];
    gapB = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && (a[i] as T).identity === (b[j] as T).identity) {
      flush();
      rows.push({ kind: 'same', a: a[i] as T, b: b[j] as T });
      i++;
      j++;
    } else if (
      j >= m ||
      (i < n && (lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number))
    ) {
      gapA.push(a[i] as T);
      i++;
    } else {
      gapB.push(b[j] as T);
      j++;
    }
  }
  flush();
  return rows;
}

/** Within one gap: pairs removed and added steps of the same family, in order. */
function pairGap<T extends Alignable>(removed: T[], added: T[]): Aligned<T>[] {
  const rows: Aligned<T>[] = [];
  let k = 0;
  for (const step of removed) {
    const match = added.findIndex(
      (candidate, index) => index >= k && candidate.family === step.family,
    );
    if (match === -1) {
      rows.push({ kind: 'removed', a: step });
      continue;
    }
    for (; k < match; k++) rows.push({ kind: 'added', b: added[k] as T });
    rows.push({ kind: 'changed', a: step, b: added[match] as T });
    k = match + 1;
  }
  for (; k < added.length; k++) rows.push({ kind: 'added', b: added[k] as T });
  return rows;
}
