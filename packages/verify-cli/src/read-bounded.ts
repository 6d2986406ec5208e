// Reading a command's input (docs/spec.md §8): a record is a regular file or standard input
// ("-"), never a device or FIFO that can stream forever. Standard input is read whole, and
// reading stops the moment it passes the cap, so `yes |` ends with a clear error instead of
// growing without bound; `/dev/zero` is refused before a byte is read. A regular file can also
// be opened as a stream of chunks (openRegularFile), so that a record larger than memory, or
// than the longest string an engine can hold, is verified without being held whole.
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** The default cap: 256 MiB, well under the longest string a JavaScript engine can hold. */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** Stable codes of input refusals. */
export type InputErrorCode = 'INPUT_NOT_REGULAR_FILE' | 'INPUT_TOO_LARGE';

/** An input refused before or while it was read. */
export class InputError extends Error {
  readonly code: InputErrorCode;
  constructor(code: InputErrorCode, message: string) {
    super(message);
    this.name = 'InputError';
    this.code = code;
  }
}

/** Options of {@link readBoundedInput}. */
export interface ReadInputOptions {
  /** Refuse input longer than this many bytes. */
  readonly maxBytes: number;
  /**
   * The buffer to read a regular file of `size` bytes into (say @runback/verify's
   * recordBuffer, which verifyJson reads without copying); undefined: a buffer of our own.
   */
  readonly allocate?: ((size: number) => Uint8Array | undefined) | undefined;
}

const tooLarge = (what: string, max: number) =>
  new InputError(
    'INPUT_TOO_LARGE',
    `expected ${what} of at most ${max} bytes (--max-bytes), got more`,
  );

/** Reads a regular file, or standard input for "-", refusing more than `maxBytes`. */
export async function readBoundedInput(
  path: string,
  { maxBytes, allocate }: ReadInputOptions,
  stdin: AsyncIterable<unknown> = process.stdin,
): Promise<Uint8Array> {
  if (path === '-') return collect(stdin, maxBytes, 'standard input');
  // O_NONBLOCK: opening a FIFO with no writer returns at once (then it is refused) instead of
  // waiting; on a regular file it changes nothing.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    refuseIrregular(info);
    if (info.size > maxBytes) throw tooLarge('a file', maxBytes);
    return await readWhole(handle, info.size, maxBytes, allocate);
  } finally {
    await handle.close();
  }
}

/**
 * Reads an open regular file to its end into one buffer sized by its `stat` (no chunks to
 * join: for a 48 MB record that copy and the stream's turns of the event loop cost about
 * 50 ms). The file may grow while it is read, so the buffer grows too, through the cap and
 * never past it; what is returned is only the bytes read.
 */
async function readWhole(
  handle: FileHandle,
  size: number,
  maxBytes: number,
  allocate?: (size: number) => Uint8Array | undefined,
): Promise<Uint8Array> {
  // One byte over the size stated, so that reaching the end is seen without a second buffer.
  const first = Math.min(size, maxBytes) + 1;
  let buffer: Uint8Array = allocate?.(first) ?? Buffer.allocUnsafe(first);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      if (total > maxBytes) throw tooLarge('a file', maxBytes);
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      grown.set(buffer.subarray(0, total));
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  if (total > maxBytes) throw tooLarge('a file', maxBytes);
  return buffer.subarray(0, total);
}

/** What a file's `stat` says about its kind; anything but a regular file is refused. */
function refuseIrregular(info: Stats): void {
  if (info.isFile()) return;
  const kind = info.isDirectory()
    ? 'a directory'
    : info.isFIFO()
      ? 'a FIFO'
      : info.isCharacterDevice()
        ? 'a character device'
        : info.isBlockDevice()
          ? 'a block device'
          : info.isSocket()
            ? 'a socket'
            : 'not a regular file';
  throw new InputError(
    'INPUT_NOT_REGULAR_FILE',
    `expected a regular file (or "-" for standard input), got ${kind}`,
  );
}

/** A regular file opened for reading as a stream of chunks. */
export interface InputStream {
  /** The file's size when it was opened. */
  readonly size: number;
  /**
   * The file's bytes, 1 MiB at a time; iterate once. The file is closed when the iteration
   * ends, however it ends. A read error or the cap being passed ends the iteration early,
   * and is then reported by {@link InputStream.failure}.
   */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Why the chunks ended before the end of the file, if they did. */
  failure(): Error | undefined;
  /** Closes the file without reading it (after an iteration it is closed already). */
  close(): Promise<void>;
}

/**
 * Opens a regular file as a stream (anything else is refused with INPUT_NOT_REGULAR_FILE
 * before a byte is read). With `maxBytes`, a file longer than that is refused up front, and one
 * that grows past it while it is read ends the stream with INPUT_TOO_LARGE.
 */
export async function openRegularFile(
  path: string,
  { maxBytes }: { readonly maxBytes?: number | undefined } = {},
): Promise<InputStream> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let info: Stats;
  try {
    info = await handle.stat();
    refuseIrregular(info);
    if (maxBytes !== undefined && info.size > maxBytes) throw tooLarge('a file', maxBytes);
  } catch (err) {
    await handle.close();
    throw err;
  }
  let failure: Error | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      let total = 0;
      for await (const chunk of handle.createReadStream({
        autoClose: false,
        highWaterMark: 1 << 20,
      })) {
        const bytes = chunk as Uint8Array;
        total += bytes.byteLength;
        if (maxBytes !== undefined && total > maxBytes) {
          failure = tooLarge('a file', maxBytes);
          return;
        }
        yield bytes;
      }
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    } finally {
      await close();
    }
  }
  return { size: info.size, chunks: chunks(), failure: () => failure, close };
}

async function collect(
  source: AsyncIterable<unknown>,
  maxBytes: number,
  what: string,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of source) {
    const bytes = chunk as Uint8Array;
    total += bytes.byteLength;
    if (total > maxBytes) throw tooLarge(what, maxBytes);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}
