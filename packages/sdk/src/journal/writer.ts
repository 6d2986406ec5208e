// Appending to a journal. Each append is one write() of the whole line followed by fsync, done
// synchronously: when an append returns, the event is on disk, and no later event can reach the
// file before it. Opened with O_APPEND, so a child process (`runback record`) and its parent can
// append to one journal without overwriting each other.
import { closeSync, constants, fsyncSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { RunbackError } from '../core/errors.js';
import type { JournalHeader } from './format.js';
import { authenticatedLine } from './auth.js';

/** How lines are written. */
export interface JournalWriteOptions {
  /** fsync after each append (default true). */
  readonly sync?: boolean;
  /** The line MAC key (auth.ts): each line gets its HMAC appended. */
  readonly macKey?: Uint8Array | undefined;
}

/** An open journal file. */
export class JournalWriter {
  readonly path: string;
  readonly #sync: boolean;
  readonly #macKey: Uint8Array | undefined;
  /** The header, written together with the first event in one write() (see create). */
  #pendingHeader: string | undefined;
  #fd: number | undefined;

  private constructor(path: string, fd: number, options: JournalWriteOptions) {
    this.path = path;
    this.#fd = fd;
    this.#sync = options.sync ?? true;
    this.#macKey = options.macKey;
  }

  /**
   * Creates a new journal holding `header`; fails with OUTPUT_EXISTS when the file exists.
   * `sync: false` skips the fsync after each append (a scratch journal that only carries events
   * between processes, where crash safety was not asked for).
   */
  static create(
    path: string,
    header: JournalHeader,
    options: JournalWriteOptions = {},
  ): JournalWriter {
    let fd: number;
    try {
      fd = openSync(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND,
        0o600,
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new RunbackError(
          'OUTPUT_EXISTS',
          `journal ${path} already exists: an earlier run was interrupted; run "runback recover ${path}" to rebuild its record (if recover says the journal holds no run, remove it: rm ${path})`,
        );
      }
      throw err;
    }
    const writer = new JournalWriter(path, fd, options);
    // The header reaches the file in the same write() as the first event (the run-start), so a
    // kill cannot leave a journal holding a header and no run: it holds both or nothing.
    writer.#pendingHeader = writer.#line(JSON.stringify(header));
    syncDirectory(dirname(path));
    return writer;
  }

  /** Opens an existing journal to append to it (the `runback record` preload in the child). */
  static openForAppend(path: string, options: JournalWriteOptions = {}): JournalWriter {
    return new JournalWriter(
      path,
      openSync(path, constants.O_WRONLY | constants.O_APPEND),
      options,
    );
  }

  /** Appends one line (which must hold no newline); with sync (the default), waits until it is on disk. */
  append(line: string): void {
    if (this.#fd === undefined) {
      throw new RunbackError('RUN_ENDED', `journal ${this.path} is closed`);
    }
    const bytes = Buffer.from((this.#pendingHeader ?? '') + this.#line(line), 'utf8');
    this.#pendingHeader = undefined;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.#fd, bytes, offset);
    if (this.#sync) fsyncSync(this.#fd);
  }

  /** A line as stored: with its MAC when the journal is authenticated, and its newline. */
  #line(text: string): string {
    return `${this.#macKey === undefined ? text : authenticatedLine(this.#macKey, text)}\n`;
  }

  /** Closes the file. Safe to call twice. */
  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** Flushes a directory entry so a newly created file survives a crash (where supported). */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Some platforms and file systems cannot open or fsync a directory.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
