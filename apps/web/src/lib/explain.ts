// The words the page puts beside each verdict and check (docs/spec.md §1, §5).
import type { CheckName, SignatureOutcome, Verdict } from '@runback/verify';

export const VERDICT_TEXT: Record<Verdict, { word: string; icon: string; means: string }> = {
  valid: {
    word: 'Valid',
    icon: '✓',
    means:
      'The record is intact and was signed by a key you pinned; it does not prove that the run itself was correct or that the inputs it recorded were true.',
  },
  unverified: {
    word: 'Unverified',
    icon: '?',
    means:
      'The record is internally consistent, but nothing proves who made it: anyone can build a self-consistent record until its signer is a key you pinned.',
  },
  invalid: {
    word: 'Invalid',
    icon: '✗',
    means:
      'Something in the record is broken or was changed after it was sealed, or its signer is revoked; do not rely on any part of it.',
  },
};

export const CHECKS: readonly { name: CheckName; label: string; explains: string }[] = [
  {
    name: 'schema',
    label: 'Schema',
    explains: 'The file is a runback record with the expected members (§5.1).',
  },
  {
    name: 'consistent',
    label: 'Consistent',
    explains: 'The unsigned run summary and event count agree with the signed events (§5.2).',
  },
  {
    name: 'chain',
    label: 'Event chain',
    explains: 'Every event’s _hash links it to the event before it (§3, §5.3).',
  },
  {
    name: 'digest',
    label: 'Content digest',
    explains: 'The chain’s last hash equals the manifest’s content_digest (§5.4).',
  },
  {
    name: 'cassette',
    label: 'Cassette digest',
    explains:
      'The replay stream of model, tool and environment inputs matches cassette_digest (§4, §5.5).',
  },
  {
    name: 'signature',
    label: 'Signature',
    explains: 'Who signed the two digests, judged against the keys you pinned (§5.6).',
  },
];

export type Tone = 'pass' | 'warn' | 'fail';

/** How a check's result reads: a tone (colour), an icon and a word, never colour alone. */
export function resultText(value: boolean | SignatureOutcome): {
  tone: Tone;
  icon: string;
  word: string;
} {
  switch (value) {
    case true:
    case 'valid':
      return { tone: 'pass', icon: '✓', word: value === true ? 'Pass' : 'Valid, pinned key' };
    case false:
      return { tone: 'fail', icon: '✗', word: 'Fail' };
    case 'valid-unpinned':
      return { tone: 'warn', icon: '?', word: 'Sound, key not pinned' };
    case 'unsigned':
      return { tone: 'warn', icon: '?', word: 'Not signed' };
    case 'no-key':
      return { tone: 'warn', icon: '?', word: 'No key to check it' };
    case 'revoked':
      return { tone: 'fail', icon: '✗', word: 'Revoked key' };
    case 'invalid':
      return { tone: 'fail', icon: '✗', word: 'Invalid' };
  }
}
