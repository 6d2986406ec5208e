// The report as a list of sections (headings, key/value lines, tables, paragraphs), shared by
// the Markdown and HTML renderers so both say the same things.
import { euAiActRows, NOT_SHOWN } from './eu-ai-act.js';
import type { ReportModel } from './model.js';
import { clip } from './escape.js';

export type Block =
  | { readonly kind: 'facts'; readonly rows: readonly (readonly [string, string])[] }
  | {
      readonly kind: 'table';
      readonly head: readonly string[];
      readonly rows: readonly (readonly string[])[];
    }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'text'; readonly text: string };

export interface Section {
  readonly title: string;
  readonly blocks: readonly Block[];
}

export interface ReportOptions {
  readonly framework?: 'eu-ai-act';
}

export function reportSections(m: ReportModel, options: ReportOptions = {}): Section[] {
  const s = m.summary;
  const v = m.verification;
  const sections: Section[] = [
    {
      title: 'Run',
      blocks: [
        {
          kind: 'facts',
          rows: [
            ['name', s.run.name ?? '(none)'],
            ['run id', s.run.run_id ?? '(none)'],
            ['status', s.run.status ?? '(none)'],
            ['started', s.run.started_at ?? '(unknown)'],
            ['ended', s.run.ended_at ?? '(unknown)'],
            ['duration', s.run.duration_ms === null ? '(unknown)' : `${s.run.duration_ms} ms`],
            ['events', String(s.event_count)],
          ],
        },
      ],
    },
    {
      title: 'Verification',
      blocks: [
        {
          kind: 'facts',
          rows: [
            ['verdict', v.verdict],
            [
              'checks',
              (['schema', 'consistent', 'chain', 'digest', 'cassette'] as const)
                .map((c) => `${c} ${v.checks[c] ? 'ok' : 'FAILED'}`)
                .join(', '),
            ],
            ['signature', v.checks.signature],
            ['signer key id', s.chain.signer?.key_id ?? '(unsigned)'],
          ],
        },
        ...(v.errors.length > 0
          ? [{ kind: 'list' as const, items: v.errors.map((e) => `${e.code}: ${e.message}`) }]
          : []),
        ...(v.verdict === 'unverified'
          ? [
              {
                kind: 'text' as const,
                text: 'Unverified: the record is intact, but its signer is not proven. Verify it with the signer’s public key pinned.',
              },
            ]
          : []),
      ],
    },
    {
      title: 'Models',
      blocks: [
        s.llm.models.length === 0
          ? { kind: 'text', text: 'No model calls were recorded.' }
          : {
              kind: 'table',
              head: ['model', 'calls', 'errors', 'input tokens', 'output tokens', 'total tokens'],
              rows: s.llm.models.map((x) => [
                x.model,
                String(x.calls),
                String(x.errors),
                String(x.input_tokens),
                String(x.output_tokens),
                String(x.total_tokens),
              ]),
            },
      ],
    },
    {
      title: 'Tools',
      blocks: [
        s.tools.length === 0
          ? { kind: 'text', text: 'No tool calls were recorded.' }
          : {
              kind: 'table',
              head: ['tool', 'calls', 'errors'],
              rows: s.tools.map((t) => [t.name, String(t.calls), String(t.errors)]),
            },
        ...(m.requestedTools.length > 0
          ? [
              {
                kind: 'text' as const,
                text: `Tools the models asked for: ${m.requestedTools.join(', ')}.`,
              },
            ]
          : []),
      ],
    },
    {
      title: 'Decisions',
      blocks: [
        {
          kind: 'facts',
          rows: [
            ['run output', m.output === null ? '(none)' : clip(m.output)],
            ...(m.error === null ? [] : [['run error', m.error] as const]),
          ],
        },
        ...(m.decisions.length > 0
          ? [
              {
                kind: 'table' as const,
                head: ['seq', 'label', 'text'],
                rows: m.decisions.map((d) => [
                  d.seq === null ? '' : String(d.seq),
                  d.label,
                  clip(d.text),
                ]),
              },
            ]
          : []),
      ],
    },
    {
      title: 'Cost',
      blocks: [
        {
          kind: 'facts',
          rows: [
            ['tokens in', String(s.llm.input_tokens)],
            ['tokens out', String(s.llm.output_tokens)],
            ['tokens total', String(s.llm.total_tokens)],
          ],
        },
        {
          kind: 'text',
          text: 'The record holds token counts, not prices: multiply by your provider’s rates for a cost in money.',
        },
      ],
    },
    {
      title: 'Errors',
      blocks: [
        s.errors.length === 0
          ? { kind: 'text', text: 'No event carries an error.' }
          : {
              kind: 'table',
              head: ['event', 'type', 'subject', 'message'],
              rows: s.errors.map((e) => [
                String(e.event_index),
                e.type,
                e.subject ?? '',
                clip(e.message, 200),
              ]),
            },
      ],
    },
    {
      title: 'Artifacts',
      blocks: [
        m.artifacts.length === 0
          ? { kind: 'text', text: 'No event names an artifact.' }
          : {
              kind: 'table',
              head: ['name', 'bytes', 'sha256'],
              rows: m.artifacts.map((a) => [a.name, String(a.bytes), a.sha256]),
            },
      ],
    },
  ];
  if (options.framework === 'eu-ai-act') {
    sections.push(
      {
        title: 'EU AI Act: logging duties (Articles 12, 19, 26)',
        blocks: [
          {
            kind: 'text',
            text: 'How this record bears on the logging duties of Regulation (EU) 2024/1689. Not legal advice: whether the duties apply, and whether a practice complies, is for the operator to judge.',
          },
          {
            kind: 'table',
            head: ['article', 'duty', 'this record', 'evidence'],
            rows: euAiActRows(m).map((r) => [r.article, r.duty, r.coverage, r.evidence]),
          },
        ],
      },
      { title: 'What the record cannot show', blocks: [{ kind: 'list', items: NOT_SHOWN }] },
    );
  }
  return sections;
}
