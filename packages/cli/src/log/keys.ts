// Reading the Ed25519 keys the log commands take: a private key (PKCS#8 PEM from runback
// keygen) to sign with, and public keys to pin — an SPKI PEM, or a C2SP verifier key text
// "name+id+key" as other transparency-log tools print them. Any problem is a usage error.
import { privateKeyFromPem, publicKeyFromPem } from '@runback/sign';
import { parseVerifierKey } from '@runback/tlog';
import { messageOf, usageError } from '../errors.js';
import type { CommandIO } from './io.js';

async function readKeyText(flag: string, path: string, io: CommandIO): Promise<string> {
  try {
    return new TextDecoder().decode(await io.readInput(path));
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_KEY', `cannot read ${flag} ${path}: ${messageOf(err)}`);
  }
}

/** The 32-byte seed of a private-key PEM file. */
export async function readPrivateKey(
  flag: string,
  path: string,
  io: CommandIO,
): Promise<Uint8Array> {
  const text = await readKeyText(flag, path, io);
  try {
    return privateKeyFromPem(text);
  } catch (err) {
    throw usageError(
      'USAGE_BAD_KEY',
      `${flag} ${path}: expected an Ed25519 private key (PKCS#8 PEM), got: ${messageOf(err)}`,
    );
  }
}

/** The raw public key of an SPKI PEM or verifier-key file. */
export async function readPublicKey(
  flag: string,
  path: string,
  io: CommandIO,
): Promise<Uint8Array> {
  const text = await readKeyText(flag, path, io);
  const vkey = parseVerifierKey(text.trim());
  if (vkey !== null) return vkey.publicKey;
  try {
    return publicKeyFromPem(text);
  } catch (err) {
    throw usageError(
      'USAGE_BAD_KEY',
      `${flag} ${path}: expected an Ed25519 public key (SPKI PEM or a note verifier key), got: ${messageOf(err)}`,
    );
  }
}
