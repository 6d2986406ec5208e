// The verdict at a glance: icon, word and colour together, and what the verdict means.
import type { Verdict } from '@runback/verify';
import { VERDICT_TEXT } from '../lib/explain.js';
import type { FileFacts } from '../worker/protocol.js';

/** `version` counts verifications, so a reader (or a test) can tell a new verdict from the last. */
export function VerdictBanner(props: {
  verdict: Verdict;
  /** Set for an evidence bundle: the verdict covers the record and the bundle's files. */
  bundle?: boolean;
  file: FileFacts;
  ms: number;
  version: number;
}) {
  const v = VERDICT_TEXT[props.verdict];
  return (
    <section
      class={`verdict verdict-${props.verdict}`}
      data-verdict={props.verdict}
      data-verification={props.version}
      aria-labelledby="verdict-word"
    >
      <span class="verdict-icon" aria-hidden="true">
        {v.icon}
      </span>
      <div>
        <h2 id="verdict-word" class="verdict-word">
          {v.word}
        </h2>
        <p class="verdict-means">
          {props.bundle === true && props.verdict === 'invalid'
            ? 'The bundle does not hold what its record and checksums say, or the record itself is broken; do not rely on any part of it.'
            : v.means}
        </p>
        <p class="file-facts">
          <span>{props.file.name}</span> ·{' '}
          <span>{props.file.bytes.toLocaleString('en')} bytes</span> · verified in{' '}
          {Math.round(props.ms)} ms · SHA-256{' '}
          <code class="hash" data-file-sha256={props.file.sha256}>
            {props.file.sha256}
          </code>
        </p>
      </div>
    </section>
  );
}
