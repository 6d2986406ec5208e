// The reader's pinned and revoked keys, remembered in localStorage; the service's published
// keys (when the page is served by the API) are held beside them but never stored.
import { keyId } from '@runback/sign';

export type KeyRole = 'pinned' | 'revoked';
export type KeyOrigin = 'you' | 'service';

export interface TrustedKey {
  readonly pem: string;
  readonly keyId: string;
  readonly role: KeyRole;
  readonly origin: KeyOrigin;
  readonly label: string;
}

const STORAGE_KEY = 'runback.trust.v1';

/** Reads a PEM public key; throws a coded TypeError (from @runback/sign) when it is not Ed25519. */
export function trustedKey(
  pem: string,
  role: KeyRole,
  origin: KeyOrigin,
  label: string,
): TrustedKey {
  const text = pem.trim() + '\n';
  return { pem: text, keyId: keyId(text), role, origin, label };
}

export function loadStoredKeys(storage: Storage | undefined): TrustedKey[] {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (raw == null) return [];
    const list = JSON.parse(raw) as { pem: string; role: KeyRole; label?: string }[];
    return list.flatMap((k) => {
      try {
        return [
          trustedKey(k.pem, k.role === 'revoked' ? 'revoked' : 'pinned', 'you', k.label ?? ''),
        ];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

export function storeKeys(storage: Storage | undefined, keys: readonly TrustedKey[]): void {
  try {
    storage?.setItem(
      STORAGE_KEY,
      JSON.stringify(
        keys
          .filter((k) => k.origin === 'you')
          .map((k) => ({ pem: k.pem, role: k.role, label: k.label })),
      ),
    );
  } catch {
    // Storage may be full or disabled (private windows): the keys still apply for this visit.
  }
}

/** Every PEM public key block in a text (a pasted or dropped file may hold several). */
export function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g) ?? [];
}
