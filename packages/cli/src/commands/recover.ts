// `runback recover`: rebuild the record of an interrupted run from its journal (docs/spec.md
// §7): every event that reached the journal, a run-end event with status `error` and error name
// `Interrupted`, sealed, signed, verified, and a report of what was recovered.
import { RunbackError } from '@runback/sdk';
import { fileExists } from '@runback/sdk/fs';
import { sealJournal, type SealJournalReport } from '@runback/sdk/journal';
import { verifyJson } from '@runback/verify';
import { escapeTerminal, makeStyle, useColor, type CommandIO } from '@runback/verify-cli';
import { readFile, rename, unlink } from 'node:fs/promises';
import { removeStaleTemps, tempPathFor } from '../recover/temp-files.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import { SIGNER_OPTIONS, loadSigner, verifiesAsSigned } from '../sign/signer.js';

const usage = `Usage: runback recover JOURNAL [--out FILE] [--force] [--allow-unauthenticated]
                       [--key PEM_FILE | --hmac-key K | --hmac-key-file F] [--json]

Rebuild a record from the journal of a run that did not finish (the process was killed,
crashed, or the machine went down). Every event that reached the journal is kept; a torn
final line (a write the crash cut short) is dropped; a run-end event with status "error"
and error name "Interrupted" is added; the record is sealed, signed, written atomically and
verified. The journal is left in place. When recovery refuses, nothing is written at FILE.

A journal written with a signing key carries an HMAC on every line under a key derived from
it; given that key, recover checks every line before it signs and refuses a journal whose
lines were written or changed without it. A journal written without a key is unauthenticated:
anyone could have written it, so recover signs one only with --allow-unauthenticated.

Options:
  --out FILE           the record to write (default: JOURNAL without ".journal")
  --force              replace FILE if it exists (default: refuse)
  --key PEM_FILE       sign with this Ed25519 private key (from runback keygen)
  --hmac-key K         sign with HMAC-SHA256 under the shared secret K
  --hmac-key-file F    read the HMAC secret from F
  --allow-unauthenticated
                       sign a journal that carries no line MACs (written without a key)
  --json               print the report as JSON
  -h, --help           show this help

Exit status: 0 recovered and verified, 1 the journal is damaged inside (the error names the
line) or the record could not be written or verified, 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      'allow-unauthenticated': { type: 'boolean', default: false },
      ...SIGNER_OPTIONS,
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) {
    throw usageError(
      'USAGE_JOURNAL',
      `expected one JOURNAL file, got ${positionals.length === 0 ? 'none' : positionals.length}`,
      'Example: runback recover run.json.journal --key keys/runback.key.pem',
    );
  }
  const journal = positionals[0] as string;
  const out =
    values.out ?? (journal.endsWith('.journal') ? journal.slice(0, -'.journal'.length) : undefined);
  if (out === undefined || out === '') {
    throw usageError('USAGE_NO_OUT', `expected --out FILE: ${journal} does not end in ".journal"`);
  }
  if (!(await fileExists(journal))) {
    throw usageError('USAGE_NO_JOURNAL', `cannot read ${journal}: no such file`);
  }
  if (!values.force && (await fileExists(out))) {
    throw new CliError('RECOVER_OUTPUT_EXISTS', `refusing to replace ${out}, which exists`, {
      hint: 'Pass --out to write elsewhere, or --force to replace it.',
    });
  }
  const loaded = await loadSigner(values, io);

  // Sealed into a temporary file beside OUT, verified there, and only then renamed to OUT: a
  // refused record never appears at OUT. The name carries our pid, so a later run can tell a
  // temporary file left by a killed recover (its pid gone) and remove it.
  await removeStaleTemps(out);
  const temp = tempPathFor(out);
  let report: SealJournalReport;
  let verification: ReturnType<typeof verifyJson>;
  let ok: boolean;
  try {
    try {
      report = await sealJournal(journal, {
        out: temp,
        signer: loaded.signer,
        allowUnauthenticated: values['allow-unauthenticated'],
      });
    } catch (err) {
      if (err instanceof RunbackError) {
        throw new CliError(`RECOVER_${err.code}`, err.message, { hint: hintFor(err.code) });
      }
      if ((err as NodeJS.ErrnoException).code !== undefined) {
        throw new CliError('RECOVER_IO', `cannot recover ${journal}: ${messageOf(err)}`);
      }
      throw err;
    }
    verification = verifyJson(await readFile(temp), loaded.trust);
    ok = verifiesAsSigned(verification, loaded);
    if (ok) await rename(temp, out);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const summary = {
    out,
    journal,
    run_id: report.runId,
    recovered_events: report.recoveredEvents,
    event_types: report.eventTypes,
    interrupted: report.interrupted,
    appended_run_end: report.appendedEnd,
    dropped_torn_line: report.droppedTornLine ?? null,
    event_count: report.manifest.event_count,
    signed: report.manifest.signed,
    journal_authentication: report.authentication,
    writer_may_be_alive: report.writerMayBeAlive,
    verdict: verification.verdict,
  };
  if (values.json) io.stdout(JSON.stringify(summary) + '\n');
  else io.stdout(formatReport(summary, makeStyle(useColor(io))));
  if (!ok) {
    throw new CliError(
      'RECOVER_NOT_VERIFIABLE',
      `the recovered record does not verify (${verification.verdict}); nothing was written at ${out}`,
      {
        details: { verification },
      },
    );
  }
  return EXIT.ok;
}

function formatReport(
  s: {
    out: string;
    run_id: string;
    recovered_events: number;
    event_types: Readonly<Record<string, number>>;
    interrupted: boolean;
    dropped_torn_line: number | null;
    event_count: number;
    signed: boolean;
    journal_authentication: string;
    writer_may_be_alive: boolean;
    verdict: string;
  },
  style: ReturnType<typeof makeStyle>,
): string {
  const types = Object.entries(s.event_types)
    .map(([type, n]) => `${n} ${escapeTerminal(type)}`)
    .join(', ');
  return [
    `${style.green('✓')} Recovered ${escapeTerminal(s.run_id)} → ${escapeTerminal(s.out)}`,
    `  events     ${s.recovered_events} from the journal (${types})`,
    `  run end    ${s.interrupted ? 'added: status error, Interrupted' : 'the journal had one; sealed as it ended'}`,
    ...(s.dropped_torn_line === null
      ? []
      : [
          `  dropped    line ${s.dropped_torn_line}: a torn final line (a write cut short by the crash)`,
        ]),
    `  record     ${s.event_count} events, ${s.signed ? 'signed' : style.yellow('unsigned (pass --key to sign)')}`,
    `  journal    ${
      {
        checked: 'every line MAC checked under the signing key',
        unchecked: 'line MACs not checked (no key given)',
        none: style.yellow('unauthenticated (written without a key)'),
      }[s.journal_authentication] ?? s.journal_authentication
    }`,
    `  verified   ${s.verdict}`,
    ...(s.writer_may_be_alive
      ? [
          style.yellow(
            '  warning    the process that wrote the journal is still running on this host: the run may not be over, and this record holds only what was journaled so far. Stop that process, then run recover again with --force.',
          ),
        ]
      : []),
    '',
  ].join('\n');
}

function hintFor(code: string): string {
  switch (code) {
    case 'JOURNAL_CORRUPT':
      return 'The journal was changed or damaged after it was written; nothing was recovered.';
    case 'JOURNAL_UNAUTHENTIC':
      return 'A line was written or changed without the signing key (or this is not the key the run was recorded with); nothing was recovered.';
    case 'JOURNAL_UNAUTHENTICATED':
      return 'The journal was written without a key, so its lines prove nothing about who wrote them. Pass --allow-unauthenticated to sign it anyway.';
    default:
      return 'Check that the file is a runback journal (FILE.json.journal).';
  }
}

export const command: Command = { usage, run };
