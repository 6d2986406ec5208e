// Runs the loan-approval agent as a recorded, signed run:
//   node main.js --out loan-approval.record.json [--key runback.key.pem] [--applicant A-1029]
// It starts the mock model server on 127.0.0.1, instruments the real `openai` client and wraps
// the tools, records the run (journaled, so a crash loses nothing), and writes the record.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import OpenAI from 'openai';
import { record, wrapTools } from '@runback/sdk';
import { instrumentOpenAI } from '@runback/sdk/openai';
import { TOOLS, approveLoan } from './agent.js';
import { startMockOpenAI } from './mock-openai-server.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'loan-approval.record.json' },
    key: { type: 'string' },
    applicant: { type: 'string', default: 'A-1029' },
  },
});

const mock = await startMockOpenAI();
try {
  // A realistic-looking key: the record must not contain it (runback redacts before writing).
  const client = instrumentOpenAI(
    new OpenAI({ baseURL: mock.url, apiKey: 'sk-example-0000000000000000000000' }),
  );
  const tools = wrapTools(TOOLS);
  const application = { applicant_id: values.applicant, amount_eur: 25000 };
  const { output, result } = await record(
    {
      name: 'loan-approval-agent',
      input: application,
      out: values.out,
      journal: true,
      actor: { type: 'system', id: 'loan-intake' },
      ...(values.key === undefined
        ? {}
        : { signer: { alg: 'Ed25519', privateKey: readFileSync(values.key, 'utf8') } }),
    },
    () => approveLoan(client, tools, application),
  );
  console.log(`decision: ${output.decision} (${output.reason})`);
  console.log(
    `record:   ${result.path} (${result.manifest.event_count} events, ${result.manifest.signed ? 'signed' : 'unsigned'})`,
  );
  console.log(`model calls served by the mock server: ${mock.calls()}`);
} finally {
  await mock.close();
}
