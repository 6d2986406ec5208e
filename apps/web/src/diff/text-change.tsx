// One string replaced by another, shown as its changed words in context on each side: A with
// the removed text marked, B with the added text marked, long unchanged stretches elided. A
// prompt changed deep inside shows where it changed, not as two identical-looking previews.
import { diffText, type TextSegment } from '@runback/diff';

/** Whether a replacement is shown as a text diff: both sides strings, longer than a glance. */
export function isTextChange(before: unknown, after: unknown): boolean {
  return (
    typeof before === 'string' && typeof after === 'string' && before.length + after.length > 80
  );
}

export function TextChangeSides(props: { before: string; after: string }) {
  const { segments } = diffText(props.before, props.after, { context: 60, maxChanged: 600 });
  return (
    <>
      <td class="side-a" data-text-diff="a">
        <code>{segments.map((s, i) => piece(s, i, 'removed'))}</code>
      </td>
      <td class="side-b" data-text-diff="b">
        <code>{segments.map((s, i) => piece(s, i, 'added'))}</code>
      </td>
    </>
  );
}

function piece(s: TextSegment, key: number, side: 'removed' | 'added') {
  if (s.kind === 'elided') {
    if (s.of !== 'same' && s.of !== side) return null;
    return (
      <span key={key} class="elided" title={`${s.length.toLocaleString('en-US')} characters`}>
        …
      </span>
    );
  }
  if (s.kind === 'same') return <span key={key}>{s.text}</span>;
  if (s.kind !== side) return null;
  return s.kind === 'removed' ? <del key={key}>{s.text}</del> : <ins key={key}>{s.text}</ins>;
}
