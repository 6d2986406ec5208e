// Error location for values with no canonical form (docs/spec.md §2, items 2 and 3): runs only
// after a serializer has thrown one of its sentinels, so the hot paths carry no bookkeeping.

import { CanonicalError } from './errors.js';
import { BIGINT, CYCLE, NON_FINITE, resolveJson } from './json-value.js';
import { toPointer } from './pointer.js';

/**
 * Turns a hot-path sentinel into a CanonicalError that names the offending value's JSON
 * Pointer and says what was expected. Any other error (a throwing getter or toJSON, say) is
 * not ours to relabel and is returned as it is.
 */
export function locateProblem(err: unknown, root: unknown, omit?: string): unknown {
  if (err !== NON_FINITE && err !== BIGINT && err !== CYCLE) return err;
  const found = findProblem(root, omit);
  const pointer = found ? toPointer(found.path) : '';
  switch (err) {
    case NON_FINITE:
      return new CanonicalError(
        'CANONICAL_NON_FINITE_NUMBER',
        `expected a finite number, got ${found ? String(found.value) : 'a non-finite number'}`,
        pointer,
      );
    case BIGINT:
      return new CanonicalError(
        'CANONICAL_BIGINT',
        `expected a JSON number, got a BigInt${found ? ` (${String(found.value)}n)` : ''}`,
        pointer,
      );
    default:
      return new CanonicalError(
        'CANONICAL_CYCLE',
        'expected an acyclic value, got a reference to an enclosing object',
        pointer,
      );
  }
}

interface Problem {
  readonly path: (string | number)[];
  readonly value: unknown;
}

interface Frame {
  readonly container: object;
  readonly keys: readonly string[];
  readonly isArray: boolean;
  index: number;
}

/**
 * Depth-first search, in canonical member order, for the first value with no JSON form: a
 * non-finite number, a BigInt, or a reference to a container on the current path. An explicit
 * stack with one path array and one set of open containers keeps it linear in the size of the
 * value at any depth.
 */
function findProblem(root: unknown, omit?: string): Problem | null {
  const path: (string | number)[] = [];
  const onPath = new Set<object>();
  const stack: Frame[] = [];
  const enter = (value: unknown): Problem | null => {
    if (typeof value === 'bigint') return { path: [...path], value };
    if (typeof value === 'number' && !Number.isFinite(value)) return { path: [...path], value };
    if (typeof value !== 'object' || value === null) return null;
    if (onPath.has(value)) return { path: [...path], value };
    onPath.add(value);
    const isArray = Array.isArray(value);
    let keys = isArray ? [] : Object.keys(value).sort();
    if (stack.length === 0 && omit !== undefined) keys = keys.filter((k) => k !== omit);
    stack.push({ container: value, keys, isArray, index: 0 });
    return null;
  };

  const atRoot = enter(resolveJson(root, ''));
  if (atRoot) return atRoot;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.isArray ? (frame.container as unknown[]).length : frame.keys.length;
    if (frame.index >= length) {
      onPath.delete(frame.container);
      stack.pop();
      path.pop();
      continue;
    }
    const i = frame.index++;
    const key = frame.isArray ? String(i) : (frame.keys[i] as string);
    const child = resolveJson((frame.container as Record<string, unknown>)[key], key);
    path.push(frame.isArray ? i : key);
    const found = enter(child);
    if (found) return found;
    if (typeof child !== 'object' || child === null) path.pop();
  }
  return null;
}
