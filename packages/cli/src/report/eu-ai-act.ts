// The record read against the logging duties of Regulation (EU) 2024/1689 (the AI Act):
// Article 12 (record-keeping by high-risk AI systems), Article 19 (providers keep the
// automatically generated logs) and Article 26 (deployers' duties, among them keeping logs
// and human oversight). Each row says, in plain words, what the duty asks, whether this record
// shows it, and what in the record does — or that nothing in a record can. Not legal advice:
// whether a system is high-risk, and whether a practice complies, is for the operator to judge.
import type { ReportModel } from './model.js';

export type Coverage = 'shown' | 'partly' | 'not shown';

export interface DutyRow {
  readonly article: string;
  readonly duty: string;
  readonly coverage: Coverage;
  readonly evidence: string;
}

export function euAiActRows(m: ReportModel): DutyRow[] {
  const s = m.summary;
  const period = s.run.started_at !== null && s.run.ended_at !== null;
  const signed = m.verification.checks.signature === 'valid';
  const intact = m.verification.integrity;
  const humans = m.actors.filter((a) => a.startsWith('user:'));
  const tools = s.tools.map((t) => t.name);
  return [
    {
      article: 'Art. 12(1)',
      duty: 'Events are recorded automatically over the system’s lifetime.',
      coverage: intact ? 'shown' : 'partly',
      evidence: `${s.event_count} events recorded automatically for this run, hash-chained${intact ? ' and intact' : ', but the record does not verify'}. One record covers one run, not the system’s lifetime.`,
    },
    {
      article: 'Art. 12(2)(a)',
      duty: 'Logs help identify situations that may present a risk or a substantial modification.',
      coverage: 'partly',
      evidence: `${s.errors.length} event${s.errors.length === 1 ? '' : 's'} with an error, the models and tools used and every input and output are recorded; whether a situation was risky is not judged by the record.`,
    },
    {
      article: 'Art. 12(2)(b)',
      duty: 'Logs support post-market monitoring.',
      coverage: 'partly',
      evidence:
        'The record is machine-readable and verifiable, so runs can be collected and compared (runback diff); the monitoring itself happens outside it.',
    },
    {
      article: 'Art. 12(2)(c)',
      duty: 'Logs support monitoring of the system’s operation by the deployer.',
      coverage: 'shown',
      evidence: `Every model call (${s.llm.calls}), tool call (${s.tools.reduce((n, t) => n + t.calls, 0)}) and environment read of the run, with inputs, outputs and timing.`,
    },
    {
      article: 'Art. 12(3)(a)',
      duty: 'The period of each use (start and end date and time).',
      coverage: period ? 'shown' : 'not shown',
      evidence: period
        ? `${s.run.started_at} to ${s.run.ended_at}, as the recording host’s clock read them.`
        : 'The record has no start or end time.',
    },
    {
      article: 'Art. 12(3)(b)',
      duty: 'The reference database against which input data was checked.',
      coverage: tools.length > 0 ? 'partly' : 'not shown',
      evidence:
        tools.length > 0
          ? `Tools queried: ${tools.join(', ')}; their inputs and outputs are recorded, not which database stood behind them.`
          : 'No tool calls are recorded.',
    },
    {
      article: 'Art. 12(3)(c)',
      duty: 'The input data that led to a match or a result.',
      coverage: 'shown',
      evidence:
        'The run input and every model request and tool input are recorded (secrets redacted before writing, each redaction listed).',
    },
    {
      article: 'Art. 12(3)(d)',
      duty: 'The natural persons who verified the results.',
      coverage: humans.length > 0 ? 'shown' : 'not shown',
      evidence:
        humans.length > 0
          ? `Events carry these user actors: ${humans.join(', ')}.`
          : 'No event names a human actor; who checked the result is not in the record.',
    },
    {
      article: 'Art. 19(1)',
      duty: 'The provider keeps the automatically generated logs for at least six months.',
      coverage: 'not shown',
      evidence:
        'A record cannot show how long it is kept. A transparency-log proof or an anchor shows it existed unaltered at a point in time.',
    },
    {
      article: 'Art. 26(6)',
      duty: 'The deployer keeps the logs under its control for at least six months.',
      coverage: 'not shown',
      evidence: 'Retention and custody are outside the record (see Art. 19).',
    },
    {
      article: 'Art. 26(2)',
      duty: 'Human oversight is assigned to competent, trained people.',
      coverage: humans.length > 0 ? 'partly' : 'not shown',
      evidence:
        humans.length > 0
          ? 'Human actors appear in the record; their competence and authority do not.'
          : 'Nothing in the record shows human oversight.',
    },
    {
      article: 'Art. 26(5)',
      duty: 'The deployer monitors operation and reports risks and serious incidents.',
      coverage: 'partly',
      evidence:
        'The record is the material to monitor; whether anyone did, and what was reported, is not in it.',
    },
    {
      article: 'Art. 12 (integrity)',
      duty: 'Logs can be relied on (not altered after the fact).',
      coverage: signed ? 'shown' : intact ? 'partly' : 'not shown',
      evidence: signed
        ? `The chain and digests verify and the signature is valid under a pinned key${m.summary.chain.signer?.key_id ? ` (${m.summary.chain.signer.key_id})` : ''}.`
        : intact
          ? 'The chain and digests verify, but the signer is not proven (no pinned key): anyone could have written a consistent record.'
          : 'The record does not verify.',
    },
  ];
}

/** What no record can show, whatever it holds. */
export const NOT_SHOWN: readonly string[] = [
  'Whether the AI system is high-risk under Article 6 and Annex III, and so whether these duties apply.',
  'How long the record is retained, and by whom (Articles 19 and 26(6)).',
  'That the recording is complete: calls made outside the instrumented clients are not recorded.',
  'That the times are true: they come from the recording host’s clock (an anchor or log checkpoint bounds them).',
  'That the model’s outputs are correct, or that the decision was right: the record shows what was said, not whether it was true.',
  'Data governance, training data and accuracy testing (Articles 10 and 15).',
  'Instructions for use followed, workers informed, affected persons informed of the decision (Article 26(1), (7), (11)).',
  'Who holds the signing key: a valid signature proves the key, not the person or organisation behind it.',
];
