// `runback keygen`: a new Ed25519 key pair as PEM files — the private key (PKCS#8, mode 0600)
// signs records, the public key (SPKI, mode 0644) is what verifiers pin with --pubkey.
import { generateEd25519KeyPair, keyId, privateKeyToPem, publicKeyToPem } from '@runback/sign';
import { makeStyle, useColor } from '@runback/verify-cli';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import { atomicWrite, fileExists } from '@runback/sdk/fs';

const usage = `Usage: runback keygen [--out DIR] [--name NAME] [--force] [--json]

Generate an Ed25519 key pair for signing runback records:
  DIR/NAME.key.pem   private key, PKCS#8 PEM, mode 0600 — keep it secret; sign with it
  DIR/NAME.pub.pem   public key, SPKI PEM, mode 0644 — verifiers pin it with --pubkey

Options:
  --out DIR      directory to write to, created if missing (default: .)
  --name NAME    file name stem (default: runback)
  --force        replace existing key files (default: refuse)
  --json         print { key_id, private_key, public_key } as JSON
  -h, --help     show this help

Exit status: 0 written, 1 refused (a key file exists) or could not write, 64 usage error.`;

async function run(argv: readonly string[], io: Parameters<Command['run']>[1]): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string', default: '.' },
      name: { type: 'string', default: 'runback' },
      force: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 0) {
    throw usageError(
      'USAGE_UNEXPECTED_ARGUMENT',
      `expected no arguments, got ${JSON.stringify(positionals[0])}`,
      'Use --out DIR to choose where the keys go.',
    );
  }
  const dir = values.out;
  const name = values.name;
  checkName(name);
  if (dir === '')
    throw usageError('USAGE_BAD_OUT', 'expected --out to name a directory, got an empty string');

  const privatePath = join(dir, `${name}.key.pem`);
  const publicPath = join(dir, `${name}.pub.pem`);
  if (!values.force) {
    // Checked for both files first, so a refusal writes nothing.
    for (const path of [privatePath, publicPath]) {
      let exists: boolean;
      try {
        exists = await fileExists(path);
      } catch (err) {
        throw new CliError('KEYGEN_WRITE_FAILED', `cannot check ${path}: ${messageOf(err)}`, {
          hint: 'Check the permissions of the directory, or choose another with --out.',
        });
      }
      if (exists) throw refuseOverwrite(path);
    }
  }

  const { privateKey, publicKey } = generateEd25519KeyPair();
  const id = keyId(publicKey);
  try {
    await makeDirectory(dir);
    await writeKey(privatePath, privateKeyToPem(privateKey), 0o600, values.force);
    await writeKey(publicPath, publicKeyToPem(publicKey), 0o644, values.force);
  } finally {
    privateKey.fill(0);
  }

  if (values.json) {
    io.stdout(
      JSON.stringify({ key_id: id, private_key: privatePath, public_key: publicPath }) + '\n',
    );
    return EXIT.ok;
  }
  const style = makeStyle(useColor(io));
  io.stdout(
    [
      `${style.green('✓')} Generated an Ed25519 key pair`,
      `  key id       ${id}`,
      `  private key  ${privatePath}  ${style.dim('(mode 0600; keep it secret: runback sign --key)')}`,
      `  public key   ${publicPath}  ${style.dim('(share it: runback verify --pubkey)')}`,
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}

async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdirParents(resolve(dir));
  } catch (err) {
    const notDir = ['EEXIST', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');
    throw new CliError(
      'KEYGEN_WRITE_FAILED',
      notDir ? `--out ${dir} is not a directory` : `cannot create ${dir}: ${messageOf(err)}`,
      { hint: 'Choose a directory with --out.' },
    );
  }
}

/**
 * mkdir -p, one level at a time. Node's own recursive mkdir never returns for some paths a
 * program cannot create (under /proc it spins forever); one mkdir per missing level fails
 * with the real reason instead.
 */
async function mkdirParents(dir: string): Promise<void> {
  try {
    await mkdir(dir);
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if ((await stat(dir)).isDirectory()) return;
      throw err;
    }
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw err;
  }
  await mkdirParents(dirname(dir));
  try {
    await mkdir(dir);
  } catch (err) {
    // Created meanwhile by someone else: fine, if it is a directory.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !(await stat(dir)).isDirectory())
      throw err;
  }
}

async function writeKey(path: string, pem: string, mode: number, force: boolean): Promise<void> {
  try {
    await atomicWrite(path, pem, { mode, overwrite: force });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw refuseOverwrite(path);
    throw new CliError('KEYGEN_WRITE_FAILED', `cannot write ${path}: ${messageOf(err)}`, {
      hint: 'Check that the directory is writable, or choose another with --out.',
    });
  }
}

/** A file name stem: no directories, nothing hidden in it. */
function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw usageError(
      'USAGE_BAD_NAME',
      `expected --name to be a plain file name stem like "runback", got ${JSON.stringify(name)}`,
      'Use --out DIR to choose the directory.',
    );
  }
}

function refuseOverwrite(path: string): CliError {
  return new CliError('KEYGEN_EXISTS', `${path} already exists; refusing to overwrite a key`, {
    hint: 'Use --force to replace it, or --name / --out to write the new pair elsewhere.',
  });
}

export const command: Command = { usage, run };
