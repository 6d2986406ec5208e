// JSON Pointer changes of one value, A on the left and B on the right.
import type { JsonChange } from '@runback/diff';
import { preview } from '@runback/diff';
import { TextChangeSides, isTextChange } from './text-change.js';

const OP: Record<JsonChange['op'], { icon: string; word: string; tone: string }> = {
  add: { icon: '+', word: 'added', tone: 'pass' },
  remove: { icon: '−', word: 'removed', tone: 'fail' },
  replace: { icon: '~', word: 'changed', tone: 'warn' },
};

function sides(c: JsonChange): { a: string; b: string } {
  if (c.op === 'add') return { a: '', b: preview(c.after, 400) };
  if (c.op === 'remove') return { a: preview(c.before, 400), b: '' };
  return { a: preview(c.before, 400), b: preview(c.after, 400) };
}

export function ChangeTable(props: { label: string; changes: readonly JsonChange[] }) {
  if (props.changes.length === 0) return null;
  return (
    <table class="changes">
      <caption>{props.label}</caption>
      <thead>
        <tr>
          <th scope="col">Change</th>
          <th scope="col">Path</th>
          <th scope="col">A</th>
          <th scope="col">B</th>
        </tr>
      </thead>
      <tbody>
        {props.changes.map((c, i) => {
          const op = OP[c.op];
          const { a, b } = sides(c);
          return (
            <tr key={i} data-op={c.op} data-path={c.path}>
              <td class={`tone-${op.tone}`}>
                <span aria-hidden="true">{op.icon}</span> {op.word}
              </td>
              <td>
                <code>{c.path === '' ? '(whole value)' : c.path}</code>
              </td>
              {c.op === 'replace' && isTextChange(c.before, c.after) ? (
                <TextChangeSides before={c.before as string} after={c.after as string} />
              ) : (
                <>
                  <td class="side-a">
                    <code>{a}</code>
                  </td>
                  <td class="side-b">
                    <code>{b}</code>
                  </td>
                </>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
