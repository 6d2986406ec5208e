// The service keys: published at /.well-known, the previous key still verifying, revoked keys
// refused, HMAC when no Ed25519 key is set, and a development key created once (mode 0600).
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyId, publicKeyFromPem } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_KEY_FILE, loadServiceKeys } from '../src/node/load-keys.js';
import { memoryLogger, newSigningKeyPem, testApp, toolEvent } from './support/app.js';
import { testDatabase, type TestDatabase } from './support/databases.js';
import type { Store } from '../src/store/types.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase('sqlite');
});
afterAll(async () => {
  await db?.cleanup();
});

/** Records one sealed run through an app with `material` and returns its export text. */
async function sealedExport(
  store: Store,
  material: Parameters<typeof testApp>[1],
): Promise<string> {
  const t = testApp(store, material);
  const token = await t.token('keys');
  const run = (await (
    await t.call('POST', '/api/runs', { token, body: { name: 'k' } })
  ).json()) as { run_id: string };
  await t.call('POST', `/api/runs/${run.run_id}/events`, {
    token,
    body: { events: [toolEvent(1)] },
    headers: { 'idempotency-key': 'k1' },
  });
  await t.call('POST', `/api/runs/${run.run_id}/finish`, { token, body: { status: 'success' } });
  return (await t.call('GET', `/api/runs/${run.run_id}/export`, { token })).text();
}

describe('published keys', () => {
  it('serves the current key as PEM and every key with its id as JSON', async () => {
    const current = newSigningKeyPem();
    const previous = newSigningKeyPem();
    const revokedPem = testApp(db.store, { ed25519PrivateKeyPem: newSigningKeyPem() }).keys.current!
      .pem;
    const t = testApp(db.store, {
      ed25519PrivateKeyPem: current,
      ed25519PreviousPrivateKeyPem: previous,
      revokedPublicKeyPems: [revokedPem],
    });
    const pem = await (await t.call('GET', '/.well-known/runback-audit-key.pem')).text();
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const keys = (await (await t.call('GET', '/.well-known/runback-audit-keys.json')).json()) as {
      current: { key_id: string; pem: string };
      previous: { key_id: string }[];
      revoked: { key_id: string }[];
    };
    expect(keys.current.pem).toBe(pem);
    expect(keys.current.key_id).toBe(keyId(publicKeyFromPem(pem)));
    expect(keys.previous).toHaveLength(1);
    expect(keys.revoked.map((k) => k.key_id)).toEqual([keyId(publicKeyFromPem(revokedPem))]);
  });

  it('a record signed by the previous key still verifies valid after a rotation', async () => {
    const old = newSigningKeyPem();
    const text = await sealedExport(db.store, { ed25519PrivateKeyPem: old });
    const rotated = testApp(db.store, {
      ed25519PrivateKeyPem: newSigningKeyPem(),
      ed25519PreviousPrivateKeyPem: old,
    });
    const answer = (await (
      await rotated.call('POST', '/api/audit/verify', { body: text })
    ).json()) as { verdict: string };
    expect(answer.verdict).toBe('valid');
    const forgotten = testApp(db.store, { ed25519PrivateKeyPem: newSigningKeyPem() });
    const unpinned = (await (
      await forgotten.call('POST', '/api/audit/verify', { body: text })
    ).json()) as { verdict: string; checks: { signature: string } };
    expect(unpinned).toMatchObject({
      verdict: 'unverified',
      checks: { signature: 'valid-unpinned' },
    });
  });

  it('a record signed by a revoked key is invalid', async () => {
    const signer = newSigningKeyPem();
    const text = await sealedExport(db.store, { ed25519PrivateKeyPem: signer });
    const revoked = testApp(db.store, { ed25519PrivateKeyPem: signer }).keys.current!.pem;
    const t = testApp(db.store, {
      ed25519PrivateKeyPem: newSigningKeyPem(),
      revokedPublicKeyPems: [revoked],
    });
    const answer = (await (await t.call('POST', '/api/audit/verify', { body: text })).json()) as {
      verdict: string;
      checks: { signature: string };
    };
    expect(answer).toMatchObject({ verdict: 'invalid', checks: { signature: 'revoked' } });
  });

  it('a record signed by the previous HMAC key still verifies valid after a rotation', async () => {
    const text = await sealedExport(db.store, { hmacKey: 'old-secret' });
    const rotated = testApp(db.store, { hmacKey: 'new-secret', hmacPreviousKey: 'old-secret' });
    const answer = (await (
      await rotated.call('POST', '/api/audit/verify', { body: text })
    ).json()) as { verdict: string; checks: { signature: string } };
    expect(answer).toMatchObject({ verdict: 'valid', checks: { signature: 'valid' } });
    // The same answer as with the old secret alone: the result does not say which key matched.
    const oldOnly = testApp(db.store, { hmacKey: 'old-secret' });
    expect(answer).toEqual(
      await (await oldOnly.call('POST', '/api/audit/verify', { body: text })).json(),
    );
    // Without the previous secret, the tag matches no key: invalid, as for any wrong key.
    const forgotten = testApp(db.store, { hmacKey: 'new-secret' });
    const wrong = (await (
      await forgotten.call('POST', '/api/audit/verify', { body: text })
    ).json()) as { verdict: string; checks: { signature: string } };
    expect(wrong).toMatchObject({ verdict: 'invalid', checks: { signature: 'invalid' } });
    // New records are signed with the current secret, and the export check accepts them.
    const fresh = await sealedExport(db.store, {
      hmacKey: 'new-secret',
      hmacPreviousKey: 'old-secret',
    });
    expect(verifyJson(fresh, { hmacKey: 'new-secret' }).verdict).toBe('valid');
    expect(verifyJson(fresh, { hmacKey: 'old-secret' }).verdict).toBe('invalid');
  });

  it('signs with HMAC when only an HMAC key is set, and has no PEM to publish', async () => {
    const text = await sealedExport(db.store, { hmacKey: 'shared-secret' });
    expect(JSON.parse(text)).toMatchObject({
      manifest: { signed: true, signature: { alg: 'HMAC-SHA256' } },
    });
    expect(verifyJson(text, { hmacKey: 'shared-secret' }).verdict).toBe('valid');
    const t = testApp(db.store, { hmacKey: 'shared-secret' });
    const res = await t.call('GET', '/.well-known/runback-audit-key.pem');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});

describe('keys from the environment', () => {
  it('generates a development key once, mode 0600, and says so in the log', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'runback-keys-'));
    const lines: { msg?: string }[] = [];
    const first = loadServiceKeys({}, dataDir, memoryLogger(lines));
    const file = join(dataDir, DEV_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lines.at(-1)?.msg).toMatch(
      /generated a development Ed25519 key in .*dev-signing-key\.pem/,
    );
    const again = loadServiceKeys({}, dataDir, memoryLogger(lines));
    expect(again.current?.key_id).toBe(first.current?.key_id);
    expect(lines.at(-1)?.msg).toMatch(/using the development key/);
  });

  it('reads PEM text or files, pinned and revoked lists, and refuses what is not a key', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'runback-keys-'));
    const pem = newSigningKeyPem();
    const keyFile = join(dataDir, 'key.pem');
    writeFileSync(keyFile, pem);
    const pub = testApp(db.store, { ed25519PrivateKeyPem: newSigningKeyPem() }).keys.current!.pem;
    const pubFile = join(dataDir, 'pinned.pem');
    writeFileSync(pubFile, pub);
    const fromFile = loadServiceKeys(
      {
        RUNBACK_ED25519_PRIVATE_KEY: keyFile,
        RUNBACK_PINNED_PUBKEYS: `${pubFile}, ${pubFile}`,
        RUNBACK_REVOKED_PUBKEYS: pubFile,
      },
      dataDir,
      memoryLogger(),
    );
    const fromText = loadServiceKeys(
      { RUNBACK_ED25519_PRIVATE_KEY: readFileSync(keyFile, 'utf8') },
      dataDir,
      memoryLogger(),
    );
    expect(fromFile.current?.key_id).toBe(fromText.current?.key_id);
    const oldHmac = loadServiceKeys({ RUNBACK_HMAC_KEY: 'old-secret' }, dataDir, memoryLogger());
    const rotatedHmac = loadServiceKeys(
      { RUNBACK_HMAC_KEY: 'new-secret', RUNBACK_HMAC_KEY_PREVIOUS: 'old-secret' },
      dataDir,
      memoryLogger(),
    );
    expect(rotatedHmac.signer).toEqual({ alg: 'HMAC-SHA256', key: 'new-secret' });
    expect(rotatedHmac.trust.hmacKey).toEqual(['new-secret', 'old-secret']);
    expect(oldHmac.trust.hmacKey).toEqual(['old-secret']);
    expect(fromFile.pinned).toHaveLength(2);
    expect(fromFile.revoked).toHaveLength(1);
    expect(() =>
      loadServiceKeys(
        { RUNBACK_PINNED_PUBKEYS: join(dataDir, 'missing.pem') },
        dataDir,
        memoryLogger(),
      ),
    ).toThrow(/RUNBACK_PINNED_PUBKEYS: expected readable PEM files/);
    expect(() =>
      loadServiceKeys(
        {
          RUNBACK_ED25519_PRIVATE_KEY:
            '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
        },
        dataDir,
        memoryLogger(),
      ),
    ).toThrow();
  });
});
