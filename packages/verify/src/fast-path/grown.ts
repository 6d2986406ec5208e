// The scanners keep their tables in typed arrays and double them when full.

/** `from`'s values copied into the larger array `to`, which is returned. */
export function grown<T extends Int32Array | Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
