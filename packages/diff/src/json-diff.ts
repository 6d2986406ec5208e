// A structural diff of two JSON values as a list of JSON Pointer operations (RFC 6901 paths),
// the shape reviewers read and tools consume: what was added, removed or replaced, where.
// Objects are compared member by member (in sorted order, so the result is deterministic);
// arrays element by element, with the longer one's extra elements added or removed at the end.
import { escapePointerToken } from '@runback/canonical';

/** One difference between `before` and `after`. */
export type JsonChange =
  | { readonly op: 'add'; readonly path: string; readonly after: unknown }
  | { readonly op: 'remove'; readonly path: string; readonly before: unknown }
  | {
      readonly op: 'replace';
      readonly path: string;
      readonly before: unknown;
      readonly after: unknown;
    };

/** Options of {@link diffJson}. */
export interface JsonDiffOptions {
  /** Member names ignored at any depth (e.g. volatile ids and timestamps). */
  readonly ignore?: ReadonlySet<string>;
  /** The pointer the reported paths start from. */
  readonly base?: string;
}

/** The changes that turn `before` into `after`; empty when they are equal as JSON. */
export function diffJson(
  before: unknown,
  after: unknown,
  options: JsonDiffOptions = {},
): JsonChange[] {
  const changes: JsonChange[] = [];
  walk(before, after, options.base ?? '', options.ignore ?? NO_NAMES, changes);
  return changes;
}

const NO_NAMES: ReadonlySet<string> = new Set();

function walk(
  a: unknown,
  b: unknown,
  path: string,
  ignore: ReadonlySet<string>,
  out: JsonChange[],
): void {
  if (a === b) return;
  if (isObject(a) && isObject(b)) {
    const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const name of names) {
      if (ignore.has(name)) continue;
      const at = `${path}/${escapePointerToken(name)}`;
      const inA = Object.hasOwn(a, name) && a[name] !== undefined;
      const inB = Object.hasOwn(b, name) && b[name] !== undefined;
      if (inA && inB) walk(a[name], b[name], at, ignore, out);
      else if (inA) out.push({ op: 'remove', path: at, before: a[name] });
      else if (inB) out.push({ op: 'add', path: at, after: b[name] });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) walk(a[i], b[i], `${path}/${i}`, ignore, out);
    for (let i = common; i < b.length; i++)
      out.push({ op: 'add', path: `${path}/${i}`, after: b[i] });
    for (let i = a.length - 1; i >= common; i--)
      out.push({ op: 'remove', path: `${path}/${i}`, before: a[i] });
    return;
  }
  if (typeof a === 'number' && typeof b === 'number' && (a === b || (a === 0 && b === 0))) return;
  out.push({ op: 'replace', path: path === '' ? '' : path, before: a, after: b });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
