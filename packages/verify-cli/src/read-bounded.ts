// Reading a command's input with a size cap (docs/spec.md §8): a record is a regular file or
// standard input ("-"), never a device or FIFO that can stream forever, and reading stops the
// moment the input passes the cap, so `/dev/zero` or `yes |` end with a clear error instead of
// growing without bound.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

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
}

const tooLarge = (what: string, max: number) =>
  new InputError(
    'INPUT_TOO_LARGE',
    `expected ${what} of at most ${max} bytes (--max-bytes), got more`,
  );

/** Reads a regular file, or standard input for "-", refusing more than `maxBytes`. */
export async function readBoundedInput(
  path: string,
  { maxBytes }: ReadInputOptions,
  stdin: AsyncIterable<unknown> = process.stdin,
): Promise<Uint8Array> {
  if (path === '-') return collect(stdin, maxBytes, 'standard input');
  // O_NONBLOCK: opening a FIFO with no writer returns at once (then it is refused) instead of
  // waiting; on a regular file it changes nothing.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
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
    if (info.size > maxBytes) throw tooLarge('a file', maxBytes);
    // The file may grow while it is read: read through the cap, never past it.
    return await collect(
      handle.createReadStream({ autoClose: false, highWaterMark: 1 << 20 }),
      maxBytes,
      'a file',
    );
  } finally {
    await handle.close();
  }
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
