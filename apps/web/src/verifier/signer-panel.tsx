// Who signed the record and whether the reader trusts that key.
import type { VerifyResult } from '@runback/verify';
import type { TrustedKey } from '../lib/trust-store.js';

export function SignerPanel(props: { result: VerifyResult; keys: readonly TrustedKey[] }) {
  const signer = props.result.signer;
  const outcome = props.result.checks.signature;
  const known =
    signer?.key_id === undefined ? undefined : props.keys.find((k) => k.keyId === signer.key_id);
  let status: { tone: string; icon: string; word: string };
  if (signer === undefined) status = { tone: 'warn', icon: '?', word: 'Not signed' };
  else if (outcome === 'revoked') status = { tone: 'fail', icon: '✗', word: 'Revoked' };
  else if (signer.alg === 'HMAC-SHA256')
    status =
      outcome === 'valid'
        ? { tone: 'pass', icon: '✓', word: 'HMAC key matches (shared secret, not an identity)' }
        : { tone: 'warn', icon: '?', word: 'HMAC: enter the shared key to check it' };
  else if (outcome === 'valid') status = { tone: 'pass', icon: '✓', word: 'Pinned' };
  else
    status = {
      tone: 'warn',
      icon: '?',
      word: known ? 'Pinned, but the signature does not verify' : 'Not pinned',
    };
  return (
    <section class="card" aria-labelledby="signer-title" data-signer-status={status.word}>
      <h2 id="signer-title">Signer</h2>
      <dl class="facts">
        <dt>Algorithm</dt>
        <dd>{signer?.alg ?? '—'}</dd>
        <dt>Key id</dt>
        <dd>
          <code class="hash" data-signer-key-id={signer?.key_id ?? ''}>
            {signer?.key_id ?? '—'}
          </code>
        </dd>
        <dt>Trust</dt>
        <dd class={`tone-${status.tone}`} data-pinned={String(outcome === 'valid')}>
          <span aria-hidden="true">{status.icon}</span> {status.word}
          {known !== undefined && <span class="muted"> ({known.label || known.origin})</span>}
        </dd>
      </dl>
    </section>
  );
}
