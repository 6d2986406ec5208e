// The human report of `runback replay` (on stderr: stdout belongs to the replayed program).
// The record's call kinds, names, values and the paths come from outside, so each passes
// through escapeTerminal (values through formatChanges) before it reaches the terminal.
import type { JsonChange } from '@runback/diff';
import type { ReplayReport } from '@runback/sdk';
import type { VerifyResult } from '@runback/verify';
import { escapeTerminal as t, type Style } from '@runback/verify-cli';
import { formatChanges } from '../format/changes.js';

/** Reproduced or where it diverged, then the record's verdict, calls, cassette and output. */
export function formatReplayReport(
  report: ReplayReport,
  recordPath: string,
  verification: VerifyResult,
  outputDiff: readonly JsonChange[],
  out: string | undefined,
  style: Style,
): string {
  const lines: string[] = [];
  const d = report.divergence;
  if (report.status === 'reproduced') {
    lines.push(`${style.green('✓ REPRODUCED')}  ${t(recordPath)}  (${report.mode} replay)`);
  } else if (d !== null) {
    const why = {
      request: 'the request differs',
      output: 'the answer differs',
      missing: 'the replay stopped making calls',
      extra: 'the replay made a call the record does not hold',
      miss: 'no recorded call answers it (a replay miss: the call failed there)',
      moved: `the call moved: the record holds it at call ${d.nearest?.call ?? '?'}`,
    }[d.reason];
    lines.push(
      `${style.red('✗ DIVERGED')} at call ${d.call} (${callLabel(d)}): ${why}  (${report.mode} replay of ${t(recordPath)})`,
    );
    if (d.reason === 'miss') {
      lines.push(
        d.nearest === null
          ? `    nearest ${style.dim(`none: the record has no ${t(d.kind)} call${d.kind === d.name ? '' : ` ${t(d.name)}`} left to compare it with`)}`
          : `    nearest recorded call ${d.nearest.call} (seq ${d.nearest.seq})${d.input.length === 0 ? style.dim(' — no visible difference: check key_projection and redaction') : ''}`,
      );
    }
    lines.push(
      ...formatChanges('request', d.input, 12, style),
      ...formatChanges('answer', d.output, 12, style),
    );
    if (d.departure !== null) {
      const first = d.departure;
      const firstWhy = {
        request: 'the request differs',
        output: 'the answer differs',
        missing: 'the record holds a call the replay did not make',
        extra: 'the replay made a call the record does not hold',
        miss: 'a replay miss',
        moved: 'the call moved',
      }[first.reason];
      lines.push(`  first departure at call ${first.call} (${callLabel(first)}): ${firstWhy}`);
    }
    // A replay miss no call event holds (a clock or random read), or why a call was not made.
    if (d.reason !== 'miss' && d.message !== null) lines.push(`  note       ${t(d.message)}`);
  } else {
    lines.push(
      `${style.red('✗ DIVERGED')}  ${t(recordPath)}  (${report.mode} replay): the calls match, the output does not`,
    );
  }
  lines.push(
    `  record     ${verification.verdict}${verification.verdict === 'unverified' ? style.dim(' (intact; pass --pubkey to prove its signer)') : ''}`,
    `  calls      ${report.recorded.entryCount} recorded, ${report.replayed.entryCount} in the replay`,
    `  cassette   ${report.cassetteMatches ? style.green('same') : style.red('differs')}  ${report.recorded.cassetteDigest.slice(0, 16)}… ${report.cassetteMatches ? '=' : '≠'} ${report.replayed.cassetteDigest.slice(0, 16)}…`,
    `  output     ${report.outputMatches ? style.green('same') : style.red('differs')}`,
  );
  if (!report.outputMatches)
    lines.push(...formatChanges('', outputDiff, 12, style).map((l) => `  ${l}`));
  if (report.toolCalls > 0) {
    const one = report.toolCalls === 1;
    const calls = `${report.toolCalls} tool() call${one ? '' : 's'}`;
    lines.push(
      report.tools === 'live'
        ? `  tools      ${calls} run live, ${one ? 'its' : 'their'} own calls answered from the record`
        : `  tools      ${calls} answered from the record, ${one ? 'its body' : 'their bodies'} not run${style.dim(` (--tools live runs ${one ? 'it' : 'them'})`)}`,
    );
  }
  if (report.placeholderCredentials.length > 0) {
    lines.push(
      `  keys       placeholder ${report.placeholderCredentials.join(', ')}${style.dim(' (none set; never sent)')}`,
    );
  }
  if (out !== undefined) lines.push(`  replay     ${t(out)}`);
  return lines.join('\n') + '\n';
}

function callLabel(call: { readonly kind: string; readonly name: string }): string {
  return `${t(call.kind)}${call.kind === call.name ? '' : ` ${t(call.name)}`}`;
}
