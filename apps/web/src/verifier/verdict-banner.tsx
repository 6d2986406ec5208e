// The verdict at a glance: icon, word and colour together, and what the verdict means.
import type { VerifyResult } from '@runback/verify';
import { VERDICT_TEXT } from '../lib/explain.js';
import type { FileFacts } from '../worker/protocol.js';

/** `version` counts verifications, so a reader (or a test) can tell a new verdict from the last. */
export function VerdictBanner(props: {
  result: VerifyResult;
  file: FileFacts;
  ms: number;
  version: number;
}) {
  const v = VERDICT_TEXT[props.result.verdict];
  return (
    <section
      class={`verdict verdict-${props.result.verdict}`}
      data-verdict={props.result.verdict}
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
        <p class="verdict-means">{v.means}</p>
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
