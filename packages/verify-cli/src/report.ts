// Human-readable report of one verification: a ✓/✗ line per check, the verdict, the signer.
// Shared by `npx @runback/verify` and `runback verify`, so both print the same thing.
import type { CheckName, VerifyResult } from '@runback/verify';
import { escapeTerminal } from './escape-terminal.js';
import type { Style } from './style.js';

const LABELS: Record<Exclude<CheckName, 'signature'>, string> = {
  schema: 'schema',
  consistent: 'consistent',
  chain: 'chain',
  digest: 'digest',
  cassette: 'cassette',
};

/**
 * Formats one result for a person: readable at a glance, details under each failed check.
 * The file name, messages and signer come from outside, so they pass through escapeTerminal.
 */
export function formatReport(name: string, result: VerifyResult, style: Style): string {
  const lines: string[] = [];
  const t = escapeTerminal;
  const verdictText =
    result.verdict === 'valid'
      ? style.green(style.bold('VALID'))
      : result.verdict === 'unverified'
        ? style.yellow(style.bold('UNVERIFIED'))
        : style.red(style.bold('INVALID'));
  lines.push(`${verdictText}  ${t(name)}`);
  for (const check of Object.keys(LABELS) as (keyof typeof LABELS)[]) {
    const ok = result.checks[check];
    lines.push(
      `  ${ok ? style.green('✓') : style.red('✗')} ${ok ? LABELS[check] : LABELS[check].padEnd(11) + (t(firstError(result, check)) || style.dim('not checked: the input is not a readable record'))}`,
    );
  }
  const sig = result.checks.signature;
  const sigMark =
    sig === 'valid'
      ? style.green('✓')
      : sig === 'invalid' || sig === 'revoked'
        ? style.red('✗')
        : style.yellow('!');
  const signer = result.signer
    ? ` ${style.dim(t(`(${result.signer.alg}${result.signer.key_id ? `, key ${result.signer.key_id}` : ''})`))}`
    : '';
  lines.push(`  ${sigMark} ${'signature'.padEnd(11)}${sig}${signer}`);
  for (const error of result.errors) {
    if (error.check === 'signature') lines.push(`      ${style.red(t(error.message))}`);
  }
  for (const note of result.notes) lines.push(`      ${style.yellow(t(note.message))}`);
  const extra = result.errors.length - countShown(result);
  if (extra > 0) lines.push(style.dim(`      (+${extra} more; --json lists every error)`));
  return lines.join('\n');
}

function firstError(result: VerifyResult, check: CheckName): string {
  const error = result.errors.find((e) => e.check === check);
  if (!error) return '';
  const where =
    error.event_index === undefined || error.message.includes(`event ${error.event_index}`)
      ? ''
      : `event ${error.event_index}: `;
  return `${where}${error.message}`;
}

function countShown(result: VerifyResult): number {
  const checks = new Set(result.errors.filter((e) => e.check !== 'signature').map((e) => e.check));
  return checks.size + result.errors.filter((e) => e.check === 'signature').length;
}
