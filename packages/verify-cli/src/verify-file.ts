// Verifying one regular file (docs/spec.md §8). A file of up to 64 MiB is read whole and
// verified by verifyJson, the faster path (peak memory about five times the file, so at most
// about 350 MB). A larger one is read as a stream through verifyStream, which holds one event
// at a time: a record larger than memory, or than an engine's longest string, still verifies,
// with peak memory set by its largest event rather than its size (a 1 GB record in under
// 300 MB; docs/benchmarks.md). Either way memory stays bounded whatever the file's size.
//
// The result is the one verifyJson gives on the same bytes, line for line, so `runback verify
// --json`, the HTTP API and the web page print the same thing for the same file. Two cases
// where a stream cannot say exactly what verifyJson says are settled by reading again:
//   - a reading error (malformed JSON, invalid UTF-8, a duplicate member…): the stream names
//     the same code but words a syntax error's position differently; a file that fits under
//     the input cap is read whole and verified by verifyJson, for its exact message;
//   - CASSETTE_OUT_OF_ORDER: events further out of seq order than the stream's reorder budget;
//     the file is streamed again with no budget (holding as many oracle entries as it takes),
//     which gives verifyJson's verdict.
import {
  recordBuffer,
  verifyJson,
  verifyStream,
  type VerifyOptions,
  type VerifyResult,
} from '@runback/verify';
import type { CommandIO } from './io.js';
import { DEFAULT_MAX_INPUT_BYTES, type InputStream } from './read-bounded.js';

/** Files up to this size are read whole and verified by verifyJson; larger ones are streamed. */
export const STREAM_ABOVE_BYTES = 64 * 1024 * 1024;

/** Whether the result failed on how the bytes read, not on what the record says. */
function readingFailed(result: VerifyResult): boolean {
  return result.errors.some((e) => e.code.startsWith('JSON_') || e.code === 'VERIFY_UNREADABLE');
}

/** The chunks of `input`, telling `progress` how many bytes were read after each. */
async function* counted(
  input: InputStream,
  progress: (read: number, total: number) => void,
): AsyncGenerator<Uint8Array> {
  let read = 0;
  for await (const chunk of input.chunks) {
    read += chunk.length;
    progress(read, input.size);
    yield chunk;
  }
}

/**
 * Verifies the regular file at `path`, streamed when it is over `streamAbove` bytes (default
 * {@link STREAM_ABOVE_BYTES}). With `maxBytes`, a longer file is refused (InputError
 * INPUT_TOO_LARGE); without, a file of any size is verified. `reorderBudget` is the first
 * streamed pass's (verifyStream's default when absent; tests pass small ones of both).
 * `progress`, when given, is told the bytes read and the file's size as a streamed file is
 * read (from 0 again when it is read a second time).
 *
 * @throws {InputError} for a file that is not regular or is over the cap; the file system's
 *   error for one that cannot be opened or read.
 */
export async function verifyFile(
  path: string,
  options: VerifyOptions,
  io: Required<Pick<CommandIO, 'streamInput'>> & Pick<CommandIO, 'readInput'>,
  {
    maxBytes,
    reorderBudget,
    streamAbove = STREAM_ABOVE_BYTES,
    progress,
  }: {
    readonly maxBytes?: number | undefined;
    readonly reorderBudget?: number | undefined;
    readonly streamAbove?: number | undefined;
    readonly progress?: ((read: number, total: number) => void) | undefined;
  },
): Promise<VerifyResult> {
  const cap = maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  // Read into the verifier's own buffer, which it reads where it is (one copy fewer).
  const whole = async () =>
    verifyJson(await io.readInput(path, { maxBytes: cap, allocate: recordBuffer }), options);
  const streamed = async (input: InputStream, budget: number | undefined) => {
    // Event by event from the first byte (wholeBytes 0): this file is too large to read whole.
    const chunks = progress === undefined ? input.chunks : counted(input, progress);
    const result = await verifyStream(chunks, {
      ...options,
      wholeBytes: 0,
      ...(budget === undefined ? {} : { reorderBudget: budget }),
    });
    const failure = input.failure();
    if (failure !== undefined) throw failure;
    return result;
  };
  const input = await io.streamInput(path, { maxBytes });
  if (input.size <= streamAbove) {
    await input.close();
    return whole();
  }
  const first = await streamed(input, reorderBudget);
  if (readingFailed(first) && input.size <= cap) return whole();
  if (first.errors.some((e) => e.code === 'CASSETTE_OUT_OF_ORDER')) {
    return streamed(await io.streamInput(path, { maxBytes }), Infinity);
  }
  return first;
}
