// An event's place in the event chain, in words and an icon as well as colour.
import type { ChainStatus } from '../worker/record-index.js';

const TEXT: Record<ChainStatus, { icon: string; word: string; tone: string }> = {
  intact: { icon: '✓', word: 'chain intact', tone: 'pass' },
  broken: { icon: '✗', word: 'chain broken here', tone: 'fail' },
  'after-break': { icon: '⚠', word: 'after the break', tone: 'warn' },
  'not-checked': { icon: '?', word: 'chain not checked', tone: 'warn' },
};

export function ChainBadge(props: { status: ChainStatus }) {
  const t = TEXT[props.status];
  return (
    <span class={`chain tone-${t.tone}`} data-chain={props.status}>
      <span aria-hidden="true">{t.icon}</span> {t.word}
    </span>
  );
}
