// Atomic file writes: the data goes to a temporary file in the target's directory, is flushed
// to disk, then takes the target's name in one step (rename, or link when the target must not
// be replaced), and the directory is flushed so the new name survives a crash. A reader sees
// the old file or the new one, never half of one; a failure leaves no temporary file behind.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileExists } from './exists.js';

/** Options of {@link atomicWrite}. */
export interface AtomicWriteOptions {
  /**
   * The file's permission bits, set exactly (the umask does not apply). The temporary file is
   * created with them, so a private key is never readable by others, not even briefly. Default:
   * the mode of the file being replaced, or 0o666 less the umask for a new file.
   */
  readonly mode?: number;
  /** Replace an existing file (default). With false, an existing target fails with EEXIST. */
  readonly overwrite?: boolean;
}

/**
 * What {@link atomicWrite} writes: text, bytes, or pieces of text produced one at a time (a
 * large record is streamed from its journal, never held in memory whole).
 */
export type AtomicWriteData =
  string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

/** Writes `data` to `path` atomically. */
export async function atomicWrite(
  path: string,
  data: AtomicWriteData,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const overwrite = options.overwrite ?? true;
  const dir = dirname(path);
  const mode = options.mode ?? (overwrite ? await existingMode(path) : undefined);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);

  // 'wx' (O_CREAT | O_EXCL): never follow or reuse an existing file at the temporary name.
  const handle = await open(temp, 'wx', mode ?? 0o666);
  let placed = false;
  try {
    try {
      if (mode !== undefined) await handle.chmod(mode);
      await writeAll(handle, data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (overwrite) {
      await rename(temp, path);
      placed = true;
    } else {
      await placeWithoutReplacing(temp, path);
    }
  } finally {
    if (!placed) await unlink(temp).catch(() => undefined);
  }
  await syncDirectory(dir);
}

async function writeAll(handle: FileHandle, data: AtomicWriteData): Promise<void> {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    await handle.writeFile(data);
    return;
  }
  // Pieces are gathered into writes of about 1 MiB: one syscall per event would be slow.
  let batch: (string | Uint8Array)[] = [];
  let size = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await handle.writeFile(
      Buffer.concat(batch.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))),
    );
    batch = [];
    size = 0;
  };
  for await (const piece of data) {
    batch.push(piece);
    size += piece.length;
    if (size >= 1 << 20) await flush();
  }
  await flush();
}

/**
 * link() fails with EEXIST instead of replacing, so there is no window between a check and the
 * write. File systems without hard links fall back to check-then-rename.
 */
async function placeWithoutReplacing(temp: string, path: string): Promise<void> {
  try {
    await link(temp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw err;
    if (await fileExists(path)) {
      throw Object.assign(new Error(`EEXIST: file already exists, '${path}'`), {
        code: 'EEXIST',
        path,
      });
    }
    await rename(temp, path);
  }
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

/** The permission bits of an existing file, or undefined when there is none. */
async function existingMode(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}

/** Flushes a directory entry change to disk. Some platforms cannot open a directory: skip there. */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, constants.O_RDONLY);
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // EINVAL/EPERM/EISDIR on file systems and platforms without directory fsync.
  } finally {
    await handle.close();
  }
}
