// verify(object) reads its argument as JSON data only (docs/spec.md §6): what is hashed must be
// what the caller's object holds, so nothing may run or hide while it is read. A getter, a
// `toJSON` method, a class instance or a Proxy-backed exotic object could show the hash one
// value and the caller another.
import { DEFAULT_MAX_DEPTH } from './json/types.js';

/** A record read as JSON data, or why it is not JSON data. */
export type JsonDataResult = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Reads `value` as JSON data through its property descriptors, never through a getter or a
 * Proxy's get trap, and returns a fresh copy of what it read; or says why it is not plain JSON
 * data, as "expected X, got Y" with a JSON Pointer. JSON data: objects whose prototype is
 * Object.prototype or null, arrays, strings, numbers (canonical form rejects non-finite ones
 * later, with its own error), booleans, null, and undefined members (omitted, as canonical
 * form omits them). Own members must be enumerable data properties with string names; arrays
 * must be dense with no extra members; nesting is bounded as in JSON text.
 */
export function readJsonData(value: unknown): JsonDataResult {
  const root: { value?: unknown } = {};
  const stack: Task[] = [{ value, pointer: '', depth: 0, parent: root, key: 'value' }];
  while (stack.length > 0) {
    const task = stack.pop() as Task;
    const v = task.value;
    const { pointer, depth } = task;
    const where = pointer === '' ? 'the record' : pointer;
    const kind = typeof v;
    if (v === null || kind === 'string' || kind === 'number' || kind === 'boolean') {
      define(task.parent, task.key, v);
      continue;
    }
    if (kind === 'undefined') {
      if (pointer === '') return { ok: false, problem: 'expected a record object, got undefined' };
      define(task.parent, task.key, undefined);
      continue;
    }
    if (kind !== 'object') return fail(`expected JSON data at ${where}, got a ${kind}`);
    if (depth >= DEFAULT_MAX_DEPTH)
      return fail(
        `expected at most ${DEFAULT_MAX_DEPTH} nested arrays/objects, got deeper nesting at ${where}`,
      );
    const object = v as object;
    const isArray = Array.isArray(object);
    const proto: unknown = Object.getPrototypeOf(object);
    if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null)
      return fail(
        `expected a plain ${isArray ? 'array' : 'object'} at ${where}, got an instance of ${nameOf(object)}`,
      );
    if (Object.getOwnPropertySymbols(object).length > 0)
      return fail(`expected only string member names at ${where}, got symbol-keyed members`);
    const names = Object.getOwnPropertyNames(object);
    const length = isArray ? (object as unknown[]).length : 0;
    if (isArray && names.length - 1 !== length)
      return fail(`expected a dense array with no extra members at ${where}, got another`);
    const copy: Record<string, unknown> | unknown[] = isArray ? new Array<unknown>(length) : {};
    define(task.parent, task.key, copy);
    for (let k = names.length - 1; k >= 0; k--) {
      const name = names[k] as string;
      if (isArray && name === 'length') continue;
      const descriptor = Object.getOwnPropertyDescriptor(object, name) as PropertyDescriptor;
      const at = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!('value' in descriptor))
        return fail(`expected a data member at ${at}, got an accessor (getter or setter)`);
      if (descriptor.enumerable !== true)
        return fail(`expected an enumerable member at ${at}, got a hidden one`);
      if (isArray && !(String(Number(name)) === name && Number(name) < length))
        return fail(`expected only elements in the array at ${where}, got ${JSON.stringify(name)}`);
      if (name === 'toJSON' && typeof descriptor.value === 'function')
        return fail(
          `expected JSON data at ${at}, got a toJSON method (the record would not be read as stored)`,
        );
      stack.push({
        value: descriptor.value,
        pointer: at,
        depth: depth + 1,
        parent: copy,
        key: name,
      });
    }
  }
  return { ok: true, value: root.value };
}

interface Task {
  readonly value: unknown;
  readonly pointer: string;
  readonly depth: number;
  readonly parent: object;
  readonly key: string;
}

const fail = (problem: string): JsonDataResult => ({ ok: false, problem });

/**
 * Sets an own data member; defineProperty, so a member named `__proto__` stays ordinary data
 * (docs/spec.md §6) and members are created in the source's order (the stack visits them so).
 */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function nameOf(object: object): string {
  try {
    const ctor: unknown = (object as { constructor?: unknown }).constructor;
    return typeof ctor === 'function' && ctor.name !== '' ? ctor.name : 'an unnamed class';
  } catch {
    return 'an unreadable class';
  }
}
