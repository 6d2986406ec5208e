// One step that differs: changed (its input and output changes), or present on one side only.
import type { StepChange } from '@runback/diff';
import { preview } from '@runback/diff';
import { ChangeTable } from './change-table.js';

const KIND: Record<StepChange['change'], { icon: string; word: string; tone: string }> = {
  changed: { icon: '~', word: 'Changed', tone: 'warn' },
  added: { icon: '+', word: 'Only in B', tone: 'pass' },
  removed: { icon: '−', word: 'Only in A', tone: 'fail' },
};

function where(side: StepChange['a']): string {
  return side === undefined ? '—' : `seq ${side.seq}, event #${side.index}`;
}

export function StepCard(props: { step: StepChange }) {
  const s = props.step;
  const kind = KIND[s.change];
  return (
    <li class={`step-card change-${s.change}`} data-step-change={s.change} data-step-name={s.name}>
      <header>
        <span class={`tone-${kind.tone} step-kind`}>
          <span aria-hidden="true">{kind.icon}</span> {kind.word}
        </span>
        <span class={`type type-${s.type}`}>{s.type}</span> <strong>{s.name}</strong>
        <span class="muted">
          A: {where(s.a)} · B: {where(s.b)}
        </span>
      </header>
      {s.change === 'changed' ? (
        <>
          <ChangeTable label="Input" changes={s.input} />
          <ChangeTable label="Output" changes={s.output} />
        </>
      ) : (
        <div class="two-sides">
          <div class="side-a">
            {s.change === 'removed' && s.step !== undefined && (
              <pre>
                input {preview(s.step.input, 400)}
                {'\n'}output {preview(s.step.output, 400)}
              </pre>
            )}
          </div>
          <div class="side-b">
            {s.change === 'added' && s.step !== undefined && (
              <pre>
                input {preview(s.step.input, 400)}
                {'\n'}output {preview(s.step.output, 400)}
              </pre>
            )}
          </div>
        </div>
      )}
    </li>
  );
}
