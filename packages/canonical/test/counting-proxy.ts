// Test support: measures how much work a serializer does on a value, without timing it. Every
// container of the value is wrapped in a Proxy that counts the serializer's reads, so a test can
// compare reads per member (a fixed cost for a linear serializer) across shapes and depths.

export interface Counted {
  /** The value, every container replaced by a counting proxy. */
  readonly value: unknown;
  /** Reads (property gets, key listings, descriptor lookups) made through the proxies so far. */
  readonly reads: () => number;
  /** Array elements plus object members in the value. */
  readonly members: number;
}

export function counted(plain: unknown): Counted {
  let reads = 0;
  let members = 0;
  const handler: ProxyHandler<object> = {
    get(target, key, receiver) {
      reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
    ownKeys(target) {
      reads++;
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor(target, key) {
      reads++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  };
  // Built bottom-up with an explicit stack, so values of any depth can be wrapped.
  const wrap = (root: unknown): unknown => {
    if (typeof root !== 'object' || root === null) return root;
    const order: object[] = [];
    const pending: object[] = [root];
    while (pending.length > 0) {
      const node = pending.pop() as object;
      order.push(node);
      for (const child of Object.values(node) as unknown[])
        if (typeof child === 'object' && child !== null) pending.push(child);
    }
    const proxies = new Map<object, object>();
    for (let i = order.length - 1; i >= 0; i--) {
      const node = order[i] as object;
      const copy: Record<string, unknown> | unknown[] = Array.isArray(node) ? [] : {};
      for (const [key, child] of Object.entries(node) as [string, unknown][]) {
        members++;
        // defineProperty, so that a member named __proto__ stays data.
        Object.defineProperty(copy, key, {
          value: typeof child === 'object' && child !== null ? proxies.get(child) : child,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      proxies.set(node, new Proxy(copy, handler));
    }
    return proxies.get(root);
  };
  const value = wrap(plain);
  return { value, members, reads: () => reads };
}
