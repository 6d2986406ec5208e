// Key projection (docs/spec.md §4.2).
//
// An llm or tool event may carry key_projection: { keep?: string[], drop?: string[] }. It
// changes only what is hashed into the replay key, never what is stored, and only a
// plain-object input is projected. `keep` is applied first, then `drop`.
//   - An empty `keep` array is no allowlist: the input is kept whole.
//   - A path starting with "/" is a JSON Pointer (RFC 6901) and addresses exactly that member.
//   - Any other path is a dot-path, read as the peer implementation reads it: in `keep` only
//     its first segment counts (a top-level allowlist); in `drop` it descends segment by
//     segment and, at an array, into every element.
// Nothing here mutates the input: containers are copied only along the paths that change.
import { ReplayDigestError, describeValue } from './errors.js';
import { copyMembers, hasOwn, isPlainObject } from './plain.js';

/** A validated key projection. */
export interface KeyProjection {
  readonly keep?: readonly string[];
  readonly drop?: readonly string[];
}

/**
 * Validates an event's `key_projection` member. `undefined` and `null` mean "no projection".
 *
 * @throws {ReplayDigestError} ORACLE_BAD_PROJECTION when it is not `{keep?: string[], drop?: string[]}`.
 */
export function parseKeyProjection(value: unknown): KeyProjection | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) {
    throw new ReplayDigestError(
      'ORACLE_BAD_PROJECTION',
      `expected key_projection to be an object, got ${describeValue(value)}`,
    );
  }
  const projection: { keep?: readonly string[]; drop?: readonly string[] } = {};
  for (const field of ['keep', 'drop'] as const) {
    const list = value[field];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) {
      throw new ReplayDigestError(
        'ORACLE_BAD_PROJECTION',
        `expected key_projection.${field} to be an array of strings, got ${describeValue(list)}`,
      );
    }
    projection[field] = list;
  }
  return projection;
}

/**
 * Applies a key projection to an llm request or tool input. Returns the input itself when
 * there is nothing to project (no projection, or an input that is not a plain object).
 */
export function projectKeyInput(input: unknown, projection: KeyProjection | undefined): unknown {
  if (projection === undefined || !isPlainObject(input)) return input;
  let out: Record<string, unknown> = input;
  if (projection.keep !== undefined && projection.keep.length > 0)
    out = applyKeep(input, projection.keep);
  if (projection.drop !== undefined) {
    for (const path of projection.drop) {
      out = (
        isPointer(path)
          ? dropPointer(out, parsePointer(path))
          : dropDotPath(out, path.split('.'), 0)
      ) as Record<string, unknown>;
    }
  }
  return out;
}

function isPointer(path: string): boolean {
  return path.startsWith('/');
}

/** RFC 6901 §3–4: split on "/", then unescape ~1 to "/" and ~0 to "~" (in that order). */
function parsePointer(pointer: string): string[] {
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** An array index token per RFC 6901 §4: "0" or digits without a leading zero, in range. */
function arrayIndex(token: string, length: number): number | null {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return null;
  const index = Number(token);
  return index < length ? index : null;
}

// keep ------------------------------------------------------------------------------------

/** The kept paths as a trie of reference tokens; a `whole` node keeps its entire subtree. */
interface KeepNode {
  whole: boolean;
  readonly children: Map<string, KeepNode>;
}

const NOTHING_KEPT = Symbol('nothing-kept');

function applyKeep(
  input: Record<string, unknown>,
  keep: readonly string[],
): Record<string, unknown> {
  const root: KeepNode = { whole: false, children: new Map() };
  for (const path of keep) {
    // A dot-path keeps its first segment's whole member; a pointer keeps exactly its member.
    const tokens = isPointer(path) ? parsePointer(path) : [path.split('.')[0] as string];
    let node = root;
    for (const token of tokens) {
      let child = node.children.get(token);
      if (!child) node.children.set(token, (child = { whole: false, children: new Map() }));
      node = child;
    }
    node.whole = true;
  }
  const kept = keepMembers(input, root);
  return kept === NOTHING_KEPT
    ? (Object.create(null) as Record<string, unknown>)
    : (kept as Record<string, unknown>);
}

/**
 * The part of `value` the trie addresses. Containers appear only around something kept;
 * through an array, the kept array holds only the addressed elements, in their original order.
 */
function keepMembers(value: unknown, node: KeepNode): unknown {
  if (node.whole) return value;
  if (isPlainObject(value)) {
    const out = Object.create(null) as Record<string, unknown>;
    let any = false;
    for (const [token, child] of node.children) {
      if (!hasOwn(value, token)) continue;
      const kept = keepMembers(value[token], child);
      if (kept === NOTHING_KEPT) continue;
      out[token] = kept;
      any = true;
    }
    return any ? out : NOTHING_KEPT;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const child = node.children.get(String(i));
      if (!child) continue;
      const kept = keepMembers(value[i], child);
      if (kept !== NOTHING_KEPT) out.push(kept);
    }
    return out.length > 0 ? out : NOTHING_KEPT;
  }
  return NOTHING_KEPT;
}

// drop ------------------------------------------------------------------------------------

/** Removes the member a JSON Pointer addresses (an array element is spliced out). */
function dropPointer(node: unknown, tokens: readonly string[]): unknown {
  if (tokens.length === 0) return node;
  return dropPointerAt(node, tokens, 0);
}

function dropPointerAt(node: unknown, tokens: readonly string[], at: number): unknown {
  const token = tokens[at] as string;
  const last = at === tokens.length - 1;
  if (isPlainObject(node)) {
    if (!hasOwn(node, token)) return node;
    if (last) return copyMembers(node, token);
    const child = dropPointerAt(node[token], tokens, at + 1);
    if (child === node[token]) return node;
    const copy = copyMembers(node);
    copy[token] = child;
    return copy;
  }
  if (Array.isArray(node)) {
    const index = arrayIndex(token, node.length);
    if (index === null) return node;
    if (last) return (node as unknown[]).filter((_, k) => k !== index);
    const child = dropPointerAt(node[index], tokens, at + 1);
    if (child === node[index]) return node;
    const copy = node.slice();
    copy[index] = child;
    return copy;
  }
  return node;
}

/** Dot-path drop: descends segment by segment and, at an array, into every element. */
function dropDotPath(node: unknown, segments: readonly string[], at: number): unknown {
  if (Array.isArray(node)) {
    let changed = false;
    const out = node.map((item: unknown) => {
      const next = dropDotPath(item, segments, at);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : node;
  }
  if (!isPlainObject(node)) return node;
  const segment = segments[at] as string;
  if (!hasOwn(node, segment)) return node;
  if (at === segments.length - 1) return copyMembers(node, segment);
  const child = dropDotPath(node[segment], segments, at + 1);
  if (child === node[segment]) return node;
  const copy = copyMembers(node);
  copy[segment] = child;
  return copy;
}
