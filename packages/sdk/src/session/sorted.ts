// Member order. Events are built with their members in canonical (sorted) order, so that
// canonical() takes its fast path (one native stringify) and the stored text is the canonical
// text (docs/spec.md §7). Order never affects a hash — canonical() sorts whatever it gets — only
// how fast it is computed.

/** A shallow copy of `object` with its members inserted in sorted (UTF-16) order. */
export function sortedMembers<T extends object>(object: T): T {
  const keys = Object.keys(object);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++)
    sorted = (keys[i - 1] as string) < (keys[i] as string);
  if (sorted) return object;
  const out: Record<string, unknown> = {};
  for (const key of keys.sort()) out[key] = (object as Record<string, unknown>)[key];
  return out as T;
}
