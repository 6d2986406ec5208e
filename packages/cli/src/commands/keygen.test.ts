import { keyId, privateKeyFromPem, publicKeyFromPem, publicKeyFromPrivateKey } from '@runback/sign';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeIO, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('runback keygen', () => {
  it('writes NAME.key.pem (0600) and NAME.pub.pem (0644) and prints the key id and paths', async () => {
    const dir = tempDir();
    const io = fakeIO();
    expect(await runCli(['keygen', '--out', dir, '--json'], io)).toBe(0);
    const out = JSON.parse(io.out()) as { key_id: string; private_key: string; public_key: string };
    expect(out.private_key).toBe(join(dir, 'runback.key.pem'));
    expect(out.public_key).toBe(join(dir, 'runback.pub.pem'));
    expect(mode(out.private_key)).toBe(0o600);
    expect(mode(out.public_key)).toBe(0o644);
    expect(out.key_id).toBe(keyId(publicKeyFromPem(readFileSync(out.public_key, 'utf8'))));
    expect(readdirSync(dir).sort()).toEqual(['runback.key.pem', 'runback.pub.pem']); // no temp files
  });

  it('the keys round-trip through node:crypto and belong together', async () => {
    const dir = tempDir();
    expect(await runCli(['keygen', '--out', dir, '--name', 'ci'], fakeIO())).toBe(0);
    const privatePem = readFileSync(join(dir, 'ci.key.pem'), 'utf8');
    const publicPem = readFileSync(join(dir, 'ci.pub.pem'), 'utf8');
    expect(privatePem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const privateKey = createPrivateKey(privatePem);
    const publicKey = createPublicKey(publicPem);
    expect(privateKey.asymmetricKeyType).toBe('ed25519');
    expect(publicKey.asymmetricKeyType).toBe('ed25519');
    expect(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' })).toBe(publicPem);
    expect(privateKey.export({ type: 'pkcs8', format: 'pem' })).toBe(privatePem);
    const signature = sign(null, Buffer.from('payload'), privateKey);
    expect(verify(null, Buffer.from('payload'), publicKey, signature)).toBe(true);
    expect(publicKeyFromPrivateKey(privateKeyFromPem(privatePem))).toEqual(
      publicKeyFromPem(publicPem),
    );
  });

  it('prints a human summary with the key id and both paths', async () => {
    const dir = tempDir();
    const io = fakeIO();
    expect(await runCli(['keygen', '--out', dir], io)).toBe(0);
    const id = keyId(publicKeyFromPem(readFileSync(join(dir, 'runback.pub.pem'), 'utf8')));
    expect(io.out()).toContain(`key id       ${id}`);
    expect(io.out()).toContain(join(dir, 'runback.key.pem'));
    expect(io.out()).toContain(join(dir, 'runback.pub.pem'));
    expect(io.out()).not.toContain('\u001b['); // no colour off a TTY
  });

  it('refuses to overwrite either file without --force, and writes nothing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'runback.pub.pem'), 'old public');
    const io = fakeIO();
    expect(await runCli(['keygen', '--out', dir], io)).toBe(1);
    expect(io.err()).toContain(
      `${join(dir, 'runback.pub.pem')} already exists; refusing to overwrite a key`,
    );
    expect(io.err()).toContain('--force');
    expect(existsSync(join(dir, 'runback.key.pem'))).toBe(false);
    expect(readFileSync(join(dir, 'runback.pub.pem'), 'utf8')).toBe('old public');
  });

  it('--force replaces an existing pair with a new one', async () => {
    const dir = tempDir();
    expect(await runCli(['keygen', '--out', dir], fakeIO())).toBe(0);
    const before = readFileSync(join(dir, 'runback.key.pem'), 'utf8');
    expect(await runCli(['keygen', '--out', dir], fakeIO())).toBe(1);
    expect(readFileSync(join(dir, 'runback.key.pem'), 'utf8')).toBe(before);
    expect(await runCli(['keygen', '--out', dir, '--force'], fakeIO())).toBe(0);
    expect(readFileSync(join(dir, 'runback.key.pem'), 'utf8')).not.toBe(before);
    expect(mode(join(dir, 'runback.key.pem'))).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['runback.key.pem', 'runback.pub.pem']);
  });

  it('creates a missing --out directory', async () => {
    const dir = join(tempDir(), 'a', 'b');
    expect(await runCli(['keygen', '--out', dir], fakeIO())).toBe(0);
    expect(mode(join(dir, 'runback.key.pem'))).toBe(0o600);
  });

  it('says so when --out is below a file, and when it cannot be created (no hang under /proc)', async () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    const below = fakeIO();
    expect(await runCli(['keygen', '--out', join(file, 'keys')], below)).toBe(1);
    expect(below.err()).toContain(`--out ${join(file, 'keys')} is not a directory`);
    // Node's recursive mkdir spins forever on this path; keygen must fail instead.
    const proc = fakeIO();
    expect(await runCli(['keygen', '--out', '/proc/runback-keys/x'], proc)).toBe(1);
    expect(proc.err()).toContain('cannot create /proc/runback-keys/x: ');
  });

  it('says so when --out is a file, not a directory', async () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    const io = fakeIO();
    expect(await runCli(['keygen', '--out', file], io)).toBe(1);
    expect(io.err()).toContain(`--out ${file} is not a directory`);
  });

  it.each(['', '../up', 'a/b', '..'])('rejects --name %j as a usage error', async (name) => {
    const io = fakeIO();
    expect(await runCli(['keygen', '--out', tempDir(), '--name', name], io)).toBe(64);
    expect(io.err()).toContain('expected --name to be a plain file name stem');
  });
});
