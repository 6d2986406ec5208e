// An OpenAI-compatible chat-completions server on 127.0.0.1, scripted like a model that does its
// job: asked about a loan, it first calls the two tools, then answers from their results. No
// network and no API key are involved; it exists so the example runs anywhere.
import { createServer } from 'node:http';

/** Starts the server on a free port; resolves to { url, close }. */
export async function startMockOpenAI() {
  let calls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' },
          }),
        );
        return;
      }
      calls++;
      const request = JSON.parse(body);
      const reply = answer(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-mock-${calls}`,
          object: 'chat.completion',
          created: 1781404031,
          model: request.model,
          system_fingerprint: 'fp_mock_1',
          choices: [
            {
              index: 0,
              message: reply.message,
              finish_reason: reply.finish_reason,
              logprobs: null,
            },
          ],
          usage: {
            prompt_tokens: 100 * calls + 28,
            completion_tokens: 24 * calls,
            total_tokens: 124 * calls + 28,
          },
        }),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The scripted model: tool calls first, then a decision from what the tools returned. */
function answer(request) {
  const messages = request.messages ?? [];
  const toolResults = messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content));
  if (toolResults.length === 0) {
    const user = messages.findLast((m) => m.role === 'user')?.content ?? '';
    const applicant = /applicant ([A-Za-z0-9-]*[A-Za-z0-9])/.exec(user)?.[1] ?? 'unknown';
    return {
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_score',
            type: 'function',
            function: {
              name: 'get_credit_score',
              arguments: JSON.stringify({ applicant_id: applicant }),
            },
          },
          {
            id: 'call_income',
            type: 'function',
            function: {
              name: 'verify_income',
              arguments: JSON.stringify({ applicant_id: applicant }),
            },
          },
        ],
      },
    };
  }
  const score = toolResults.find((r) => 'score' in r)?.score ?? 0;
  const income = toolResults.find((r) => 'verified' in r);
  const approve = score >= 700 && income?.verified === true;
  const decision = {
    decision: approve ? 'approve' : 'decline',
    reason: approve
      ? `credit score ${score} is at least 700 and income is verified`
      : `credit score ${score} or income verification does not meet policy`,
  };
  return {
    finish_reason: 'stop',
    message: { role: 'assistant', content: JSON.stringify(decision), refusal: null },
  };
}
