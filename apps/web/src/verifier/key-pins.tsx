// Pinning and revoking public keys (paste or drop a PEM), and the HMAC key for HMAC records.
import { useState } from 'preact/hooks';
import { pemBlocks, trustedKey, type KeyRole, type TrustedKey } from '../lib/trust-store.js';

export interface KeyPinsProps {
  readonly keys: readonly TrustedKey[];
  readonly onKeys: (keys: TrustedKey[]) => void;
  readonly hmacKey: string;
  readonly onHmacKey: (key: string) => void;
}

export function KeyPins(props: KeyPinsProps) {
  const [text, setText] = useState('');
  const [role, setRole] = useState<KeyRole>('pinned');
  const [problem, setProblem] = useState<string | null>(null);
  const [hmac, setHmac] = useState(props.hmacKey);

  const add = (source: string, label: string) => {
    const blocks = pemBlocks(source);
    if (blocks.length === 0) {
      setProblem('expected a PEM public key (-----BEGIN PUBLIC KEY-----), got none');
      return;
    }
    const added: TrustedKey[] = [];
    for (const pem of blocks) {
      try {
        added.push(trustedKey(pem, role, 'you', label));
      } catch (err) {
        setProblem((err as Error).message);
        return;
      }
    }
    const rest = props.keys.filter(
      (k) => !added.some((a) => a.keyId === k.keyId && k.origin === 'you'),
    );
    props.onKeys([...rest, ...added]);
    setProblem(null);
    setText('');
  };

  return (
    <section
      class="card"
      aria-labelledby="keys-title"
      data-dropzone="keys"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const file = e.dataTransfer?.files[0];
        if (file !== undefined) void file.text().then((t) => add(t, file.name));
      }}
    >
      <h2 id="keys-title">Trusted keys</h2>
      <p class="muted">
        A record is <strong>valid</strong> only when its signer is a key you pin here. Keys you add
        are remembered in this browser.
      </p>
      {props.keys.length === 0 ? (
        <p class="empty">No keys pinned.</p>
      ) : (
        <ul class="keys" aria-label="Pinned and revoked keys">
          {props.keys.map((k) => (
            <li key={`${k.origin}-${k.keyId}-${k.role}`} data-key-id={k.keyId} data-role={k.role}>
              <span class={`badge role-${k.role}`}>
                <span aria-hidden="true">{k.role === 'pinned' ? '✓' : '✗'}</span>{' '}
                {k.role === 'pinned' ? 'Pinned' : 'Revoked'}
              </span>
              <code class="hash">{k.keyId}</code>
              <span class="muted">
                {k.origin === 'service' ? k.label : k.label || 'added by you'}
              </span>
              {k.origin === 'you' && (
                <button
                  type="button"
                  class="button small"
                  aria-label={`Remove key ${k.keyId.slice(0, 12)}`}
                  onClick={() => props.onKeys(props.keys.filter((x) => x !== k))}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <label for="pem-text" class="field-label">
        Public key (PEM) — paste, or drop a .pem file on this panel
      </label>
      <textarea
        id="pem-text"
        rows={4}
        spellcheck={false}
        placeholder="-----BEGIN PUBLIC KEY-----"
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <div class="row">
        <label for="pem-role" class="field-label inline">
          Use as
        </label>
        <select
          id="pem-role"
          value={role}
          onChange={(e) => setRole(e.currentTarget.value as KeyRole)}
        >
          <option value="pinned">pinned (trusted signer)</option>
          <option value="revoked">revoked (signatures are invalid)</option>
        </select>
        <button
          type="button"
          class="button"
          disabled={text.trim() === ''}
          onClick={() => add(text, '')}
        >
          Add key
        </button>
      </div>
      {problem !== null && (
        <p class="tone-fail" role="alert">
          <span aria-hidden="true">✗</span> {problem}
        </p>
      )}
      <details class="hmac">
        <summary>HMAC-SHA256 records: shared key</summary>
        <label for="hmac-key" class="field-label">
          HMAC key (kept in memory only, never stored)
        </label>
        <div class="row">
          <input
            id="hmac-key"
            type="password"
            autocomplete="off"
            value={hmac}
            onInput={(e) => setHmac(e.currentTarget.value)}
          />
          <button type="button" class="button" onClick={() => props.onHmacKey(hmac)}>
            Use key
          </button>
        </div>
      </details>
    </section>
  );
}
