/** A plain object: a non-array object whose prototype is Object.prototype or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether `object` has an own member `key` (`__proto__` included, as data). */
export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * A shallow copy of `object` on a null prototype, so that a member named `__proto__` stays an
 * ordinary data member (docs/spec.md §2 rule 6, §6).
 */
export function copyMembers(
  object: Record<string, unknown>,
  skip?: string,
): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(object)) if (key !== skip) out[key] = object[key];
  return out;
}
