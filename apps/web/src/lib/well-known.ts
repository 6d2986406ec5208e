// The audit service's published keys: when the page is served by apps/api, its
// /.well-known/runback-audit-keys.json lists its current and previous signing keys, the other
// keys it pins and the keys it revoked, each as {key_id, alg, pem}.
import { pemBlocks, trustedKey, type TrustedKey } from './trust-store.js';

const PEM_MEMBERS = ['pem', 'public_key_pem', 'pubkey', 'public_key', 'key'] as const;

function pemOf(entry: Record<string, unknown>): string | null {
  for (const name of PEM_MEMBERS) {
    const value = entry[name];
    if (typeof value === 'string' && pemBlocks(value).length > 0) return value;
  }
  return null;
}

/** The keys of a keys document: current and previous ones pinned, revoked ones revoked. */
export function keysOfDocument(doc: unknown): TrustedKey[] {
  const out: TrustedKey[] = [];
  const add = (entry: unknown, fallback: string) => {
    if (typeof entry !== 'object' || entry === null) return;
    const e = entry as Record<string, unknown>;
    const pem = pemOf(e);
    if (pem === null) return;
    const status = typeof e['status'] === 'string' ? e['status'] : fallback;
    const revoked = status === 'revoked' || e['revoked'] === true;
    try {
      out.push(trustedKey(pem, revoked ? 'revoked' : 'pinned', 'service', `service: ${status}`));
    } catch {
      // A published entry that is not an Ed25519 key is skipped, never trusted.
    }
  };
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  for (const [member, status] of [
    ['keys', 'current'],
    ['current', 'current'],
    ['previous', 'previous'],
    ['pinned', 'pinned'],
    ['revoked', 'revoked'],
  ] as const) {
    const value = d[member];
    if (Array.isArray(value)) value.forEach((e) => add(e, status));
    else add(value, status);
  }
  return out;
}

/** Fetches the service's keys from this page's origin; none when the page is not served by it. */
export async function serviceKeys(base: string): Promise<TrustedKey[]> {
  try {
    const response = await fetch(new URL('/.well-known/runback-audit-keys.json', base), {
      credentials: 'omit',
      cache: 'no-store',
    });
    if (!response.ok) return [];
    if (!(response.headers.get('content-type') ?? '').includes('json')) return [];
    return keysOfDocument(await response.json());
  } catch {
    return [];
  }
}
