// The agent: an ordinary OpenAI tool-calling loop. Nothing in it knows about runback. main.js
// records it with the SDK (an instrumented client, wrapped tools); run directly, it is a plain
// program that `runback record` and `runback replay` capture with no code change:
//   node agent.js --base-url http://127.0.0.1:PORT/v1 [--applicant A-1029] [--prompt-style brief]
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const SYSTEM_PROMPT =
  'You are a loan officer. Use the tools to check the applicant, then answer with JSON ' +
  '{"decision": "approve" | "decline", "reason": string}. Approve only with a credit score of ' +
  'at least 700 and verified income.';

/** The same instructions, worded differently: the "code change" the replay demo catches. */
export const BRIEF_SYSTEM_PROMPT =
  'Loan officer. Check the applicant with the tools; answer JSON {"decision", "reason"}. ' +
  'Approve only if the credit score is 700 or more and income is verified.';

export const TOOL_DEFINITIONS = [
  {
    type: 'function',
    function: {
      name: 'get_credit_score',
      description: "The applicant's current credit score from the bureau.",
      parameters: {
        type: 'object',
        properties: { applicant_id: { type: 'string' } },
        required: ['applicant_id'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'verify_income',
      description: "Whether the applicant's declared income is verified by payroll records.",
      parameters: {
        type: 'object',
        properties: { applicant_id: { type: 'string' } },
        required: ['applicant_id'],
      },
    },
  },
];

/** The tools, as plain functions (a bureau and a payroll lookup in a real deployment). */
export const TOOLS = {
  get_credit_score: async ({ applicant_id }) => ({
    applicant_id,
    score: applicant_id === 'A-1029' ? 742 : 611,
    bureau: 'mock-bureau',
  }),
  verify_income: async ({ applicant_id }) => ({
    applicant_id,
    verified: true,
    annual_income_eur: 68000,
  }),
};

/** Runs the loop until the model answers; returns its decision. */
export async function approveLoan(
  client,
  tools,
  application,
  { model = 'gpt-4o-mini', systemPrompt = SYSTEM_PROMPT } = {},
) {
  const messages = [
    { role: 'system', content: systemPrompt },
    {
      role: 'user',
      content: `Decide on the loan for applicant ${application.applicant_id}: ${application.amount_eur} EUR.`,
    },
  ];
  for (let turn = 0; turn < 5; turn++) {
    const completion = await client.chat.completions.create({
      model,
      messages,
      tools: TOOL_DEFINITIONS,
      temperature: 0,
    });
    const message = completion.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length) return JSON.parse(message.content);
    for (const call of message.tool_calls) {
      const result = await tools[call.function.name](JSON.parse(call.function.arguments));
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  throw new Error('the model did not reach a decision in 5 turns');
}

// Run directly: a plain program, configured by flags, printing its decision as JSON.
// Compared as real paths: run through a symlinked folder, argv[1] names the link, while
// import.meta.url names the file it points to.
const runDirectly =
  process.argv[1] !== undefined &&
  realpathSync(fileURLToPath(import.meta.url)) === realpathSync(process.argv[1]);
if (runDirectly) {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      applicant: { type: 'string', default: 'A-1029' },
      'prompt-style': { type: 'string', default: 'standard' },
    },
  });
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({
    baseURL: values['base-url'] ?? process.env.OPENAI_BASE_URL,
    apiKey: process.env.OPENAI_API_KEY ?? 'sk-example-0000000000000000000000',
    maxRetries: 0,
  });
  const systemPrompt = values['prompt-style'] === 'brief' ? BRIEF_SYSTEM_PROMPT : SYSTEM_PROMPT;
  const application = { applicant_id: values.applicant, amount_eur: 25000 };
  try {
    const decision = await approveLoan(client, TOOLS, application, { systemPrompt });
    console.log(JSON.stringify({ applicant_id: application.applicant_id, ...decision }));
  } catch (err) {
    // A failed model call (a replay miss, a server error): one line, not a stack trace.
    console.error(`agent: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
