// The service's keys from the environment:
//   RUNBACK_ED25519_PRIVATE_KEY, RUNBACK_ED25519_PRIVATE_KEY_PREVIOUS  PKCS#8 PEM text, or a path to one
//   RUNBACK_HMAC_KEY, RUNBACK_HMAC_KEY_PREVIOUS                        shared secrets
//   RUNBACK_PINNED_PUBKEYS, RUNBACK_REVOKED_PUBKEYS                    comma-separated PEM paths
// With no signing key at all, a development Ed25519 key is generated once and kept (mode 0600)
// under the data directory, and the log says so.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEd25519KeyPair, privateKeyToPem } from '@runback/sign';
import type { Logger } from '../deps.js';
import { serviceKeysFrom, type ServiceKeys } from '../keys/service-keys.js';

type Env = Readonly<Record<string, string | undefined>>;

/** File name of the development key under the data directory. */
export const DEV_KEY_FILE = 'dev-signing-key.pem';

function pemOrFile(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  try {
    return readFileSync(value, 'utf8');
  } catch (err) {
    throw new Error(
      `${name}: expected PEM text or a readable PEM file, got ${JSON.stringify(value)} (${(err as Error).message})`,
    );
  }
}

function pemList(value: string | undefined, name: string): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch (err) {
        throw new Error(
          `${name}: expected readable PEM files, got ${JSON.stringify(path)} (${(err as Error).message})`,
        );
      }
    });
}

/** Reads (or creates) the development key. */
function devKey(dataDir: string, log: Logger): string {
  const file = join(dataDir, DEV_KEY_FILE);
  if (existsSync(file)) {
    log.warn(
      { key_file: file },
      `no signing key configured: using the development key in ${file}; set RUNBACK_ED25519_PRIVATE_KEY for real records`,
    );
    return readFileSync(file, 'utf8');
  }
  mkdirSync(dataDir, { recursive: true });
  const pem = privateKeyToPem(generateEd25519KeyPair().privateKey);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, pem, { mode: 0o600, flag: 'wx' });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  log.warn(
    { key_file: file },
    `no signing key configured: generated a development Ed25519 key in ${file} (mode 0600); set RUNBACK_ED25519_PRIVATE_KEY for real records`,
  );
  return pem;
}

/** The service keys the environment describes. */
export function loadServiceKeys(env: Env, dataDir: string, log: Logger): ServiceKeys {
  let ed25519 = pemOrFile(env['RUNBACK_ED25519_PRIVATE_KEY'], 'RUNBACK_ED25519_PRIVATE_KEY');
  const hmacKey = env['RUNBACK_HMAC_KEY'] === '' ? undefined : env['RUNBACK_HMAC_KEY'];
  const hmacPreviousKey =
    env['RUNBACK_HMAC_KEY_PREVIOUS'] === '' ? undefined : env['RUNBACK_HMAC_KEY_PREVIOUS'];
  if (ed25519 === undefined && hmacKey === undefined) ed25519 = devKey(dataDir, log);
  return serviceKeysFrom({
    ed25519PrivateKeyPem: ed25519,
    ed25519PreviousPrivateKeyPem: pemOrFile(
      env['RUNBACK_ED25519_PRIVATE_KEY_PREVIOUS'],
      'RUNBACK_ED25519_PRIVATE_KEY_PREVIOUS',
    ),
    hmacKey,
    hmacPreviousKey,
    pinnedPublicKeyPems: pemList(env['RUNBACK_PINNED_PUBKEYS'], 'RUNBACK_PINNED_PUBKEYS'),
    revokedPublicKeyPems: pemList(env['RUNBACK_REVOKED_PUBKEYS'], 'RUNBACK_REVOKED_PUBKEYS'),
  });
}
