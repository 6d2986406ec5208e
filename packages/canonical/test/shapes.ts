// Test support: adversarially nested values for the linear-work tests and the benchmark's
// generator to agree on. Each builder nests `depth` containers, alternating objects and arrays.

export type Shape = 'disordered' | 'integer-names' | 'ordered-until-leaf';

/**
 * - `disordered`: members out of canonical order at every level (`{z, a, b}`);
 * - `integer-names`: a member sorting before the nested one at every level is plain, and an
 *   integer-like name after it refuses any copying fast path (`{"!": nested, "0": i}`);
 * - `ordered-until-leaf`: in canonical order at every level except the innermost object, so a
 *   walk that checks order learns it only at the bottom.
 */
export function nested(shape: Shape, depth: number): unknown {
  let value: unknown = shape === 'ordered-until-leaf' ? { y: 1, x: 2 } : { leaf: 'x' };
  for (let i = 0; i < depth; i++) {
    if (i % 2 === 1) value = [value, i, 'a'];
    else if (shape === 'disordered') value = { z: value, a: i, b: 'abc' };
    else if (shape === 'integer-names') value = { '!': value, '0': i, b: 'abc' };
    else value = { a: i, b: 'abc', z: value };
  }
  return value;
}
