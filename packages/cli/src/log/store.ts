// The file-backed log of `runback log`: a directory holding
//
//   log.json         { "$schema": "runback.tlog-store/v1", "origin": "<log origin>" }
//   entries.jsonl    one record head per line, canonical JSON, in append order
//   checkpoint       the latest signed checkpoint (C2SP signed note)
//
// The Merkle tree is recomputed from entries.jsonl; every write is atomic (temporary file,
// fsync, rename), and a writer holds DIR/.lock (created exclusively) so that two appends
// can never lose one another's entries.
import { open, readFile, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '@runback/sdk/fs';
import { parseRecordHead, recordHeadText, type RecordHead } from '@runback/tlog';
import { readJsonStrict } from '@runback/verify';
import { CliError, messageOf } from '../errors.js';
import type { EvidenceErrorCode } from '../evidence-codes.js';

export const STORE_SCHEMA = 'runback.tlog-store/v1';

/** An opened log directory. */
export interface LogStore {
  readonly dir: string;
  readonly origin: string;
  readonly heads: readonly RecordHead[];
  /** The latest signed checkpoint, or null before the first `runback log checkpoint`. */
  readonly checkpoint: string | null;
}

const paths = (dir: string) => ({
  config: join(dir, 'log.json'),
  entries: join(dir, 'entries.jsonl'),
  checkpoint: join(dir, 'checkpoint'),
  lock: join(dir, '.lock'),
});

function storeError(code: EvidenceErrorCode, message: string, hint?: string): CliError {
  return new CliError(code, message, hint === undefined ? {} : { hint });
}

/** Creates an empty log in `dir` (created if missing); refuses a directory that holds one. */
export async function initStore(dir: string, origin: string): Promise<void> {
  const p = paths(dir);
  await mkdir(dir, { recursive: true });
  try {
    await atomicWrite(p.config, JSON.stringify({ $schema: STORE_SCHEMA, origin }) + '\n', {
      overwrite: false,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw storeError(
        'LOG_EXISTS',
        `expected no log in ${dir}, got an existing ${p.config}`,
        'Use another directory, or append to this log.',
      );
    }
    throw err;
  }
  await atomicWrite(p.entries, '', { overwrite: false });
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Reads a log directory, checking every entry line. */
export async function openStore(dir: string): Promise<LogStore> {
  const p = paths(dir);
  const configText = await readText(p.config);
  if (configText === null) {
    throw storeError(
      'LOG_NOT_FOUND',
      `expected a runback log in ${dir}, got no ${p.config}`,
      'Create one with: runback log init DIR --origin NAME',
    );
  }
  const config = readJsonStrict(new TextEncoder().encode(configText));
  const value = config.ok ? (config.value as Record<string, unknown> | null) : null;
  if (
    value === null ||
    typeof value !== 'object' ||
    value['$schema'] !== STORE_SCHEMA ||
    typeof value['origin'] !== 'string'
  ) {
    throw storeError(
      'LOG_CORRUPT',
      `${p.config}: expected {"$schema": "${STORE_SCHEMA}", "origin": …}`,
    );
  }
  const entriesText = (await readText(p.entries)) ?? '';
  if (entriesText !== '' && !entriesText.endsWith('\n')) {
    throw storeError(
      'LOG_CORRUPT',
      `${p.entries}: expected every entry to end with a newline, got a cut-off last line`,
    );
  }
  const heads =
    entriesText === ''
      ? []
      : entriesText
          .slice(0, -1)
          .split('\n')
          .map((line, i) => entryOf(line, i, p.entries));
  return { dir, origin: value['origin'], heads, checkpoint: await readText(p.checkpoint) };
}

function entryOf(line: string, index: number, file: string): RecordHead {
  const parsed = readJsonStrict(new TextEncoder().encode(line));
  try {
    if (!parsed.ok) throw new Error(parsed.error.message);
    const head = parseRecordHead(parsed.value);
    if (recordHeadText(head) !== line) throw new Error('expected the canonical form of the head');
    return head;
  } catch (err) {
    throw storeError('LOG_CORRUPT', `${file}: entry ${index}: ${messageOf(err)}`);
  }
}

/** Runs `fn` holding the directory's write lock. */
export async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = paths(dir).lock;
  let handle;
  try {
    handle = await open(lock, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw storeError(
        'LOG_LOCKED',
        `expected no other writer on ${dir}, got its lock file ${lock}`,
        'Wait for the other runback log command; if none is running, remove the lock file.',
      );
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw storeError(
        'LOG_NOT_FOUND',
        `expected a runback log in ${dir}, got no such directory`,
        'Create one with: runback log init DIR --origin NAME',
      );
    }
    throw err;
  }
  try {
    return await fn();
  } finally {
    await handle.close();
    await rm(lock, { force: true });
  }
}

/** Rewrites entries.jsonl with `heads` (atomically). */
export async function writeEntries(dir: string, heads: readonly RecordHead[]): Promise<void> {
  await atomicWrite(paths(dir).entries, heads.map((h) => recordHeadText(h) + '\n').join(''));
}

/** Replaces the latest checkpoint (atomically). */
export async function writeCheckpoint(dir: string, note: string): Promise<void> {
  await atomicWrite(paths(dir).checkpoint, note);
}
