// `--report FILE` of record and replay, whose standard output belongs to the program they run:
// the JSON that --json prints (the report, or on failure `{"error": …}`) written to a file,
// atomically.
import { atomicWrite } from '@runback/sdk/fs';
import { resolve } from 'node:path';
import { CliError, messageOf, usageError } from './errors.js';
import { errorJson } from './json-error.js';

/**
 * Writes `value` as one JSON line to `path`, atomically: a reader sees the previous file or
 * the whole report, never part of one.
 */
export async function writeJsonReport(path: string, value: unknown): Promise<void> {
  try {
    await atomicWrite(path, JSON.stringify(value) + '\n');
  } catch (err) {
    throw new CliError('REPORT_WRITE_FAILED', `cannot write --report ${path}: ${messageOf(err)}`);
  }
}

/**
 * The value of `--report FILE` (or `--report=FILE`) among the flags before "--", read before
 * the flags are parsed so that even a flag mistake lands in the report file.
 */
export function reportFlag(flags: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < flags.length; i++) {
    const arg = flags[i] as string;
    if (arg === '--') break;
    if (arg === '--report') {
      const next = flags[i + 1];
      if (next !== undefined && !next.startsWith('-')) found = next;
      i++;
    } else if (arg.startsWith('--report=')) {
      found = arg.slice('--report='.length);
    }
  }
  return found === '' ? undefined : found;
}

/**
 * Runs a command body; when it fails and `--report FILE` was given, the failure's
 * `{"error": …}` is written to FILE before the error goes on to run-cli's handler.
 */
export async function reportingFailures(
  reportPath: string | undefined,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await body();
  } catch (err) {
    // A refused --report FILE (it names the record itself) is not written to.
    const refused = err instanceof CliError && err.code === 'USAGE_BAD_REPORT';
    if (reportPath !== undefined && !refused) {
      await writeJsonReport(reportPath, errorJson(err)).catch(() => undefined);
    }
    throw err;
  }
}

/** --report FILE must name a file, and not one of the files the command reads or writes. */
export function checkReportPath(report: string, others: readonly (string | undefined)[]): void {
  if (report === '') {
    throw usageError('USAGE_BAD_REPORT', 'expected --report FILE to name a file, got ""');
  }
  const clash = others.find((other) => other !== undefined && resolve(other) === resolve(report));
  if (clash !== undefined) {
    throw usageError(
      'USAGE_BAD_REPORT',
      `expected --report FILE to be a file of its own, got ${JSON.stringify(report)}, which the command also uses as its record`,
    );
  }
}
