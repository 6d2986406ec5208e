// In-code replay() with no API key: the real OpenAI client, built inside the agent from the
// environment, starts on a placeholder while the agent runs; the placeholder is gone afterwards,
// and a key the user set is left alone.
import { OpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { mockServerPerTest } from '../../test/mock-llm/lifecycle.js';
import { CHAT_MODEL, CHAT_TEXT } from '../../test/mock-llm/openai.js';
import { recordToFile } from '../../test/mock-llm/recording.js';
import { PLACEHOLDER_CREDENTIAL } from '../session/placeholder-credentials.js';
import { replay } from './replay.js';

const server = mockServerPerTest();
const saved = process.env['OPENAI_API_KEY'];
afterEach(() => {
  if (saved === undefined) delete process.env['OPENAI_API_KEY'];
  else process.env['OPENAI_API_KEY'] = saved;
});

/** An agent that builds its client from the environment, as most programs do. */
function agentAgainst(baseURL: string) {
  return async () => {
    const keySeen = process.env['OPENAI_API_KEY'];
    const openai = new OpenAI({ baseURL: `${baseURL}/v1`, maxRetries: 0 });
    const chat = await openai.chat.completions.create({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    return { text: chat.choices[0]?.message.content, keySeen: keySeen === PLACEHOLDER_CREDENTIAL };
  };
}

async function recordOne() {
  server().reply({ json: CHAT_TEXT });
  process.env['OPENAI_API_KEY'] = 'sk-recording-key';
  const agent = agentAgainst(server().url);
  const written = await recordToFile(agent, { captureEnv: true });
  await server().close();
  delete process.env['OPENAI_API_KEY'];
  return { agent, written };
}

describe('replay() without a provider key', () => {
  it('gives the agent a placeholder while it runs, reports it, and removes it afterwards', async () => {
    const { agent, written } = await recordOne();
    expect(written.output.keySeen).toBe(false);
    const { report, output, error } = await replay({ path: written.path }, agent);
    expect(error).toBeUndefined();
    expect(output).toEqual({ text: written.output.text, keySeen: true });
    expect(report.placeholderCredentials).toEqual(['OPENAI_API_KEY']);
    expect(process.env['OPENAI_API_KEY']).toBeUndefined();
    // The output differs (keySeen), the calls do not: the placeholder changed no request.
    expect(report.cassetteMatches).toBe(true);
  });

  it('keeps a key the user set, and reports no placeholder', async () => {
    const { agent, written } = await recordOne();
    process.env['OPENAI_API_KEY'] = 'sk-users-own';
    const { report, output } = await replay({ path: written.path }, agent);
    expect(report.placeholderCredentials).toEqual([]);
    expect(report.status).toBe('reproduced');
    expect(output?.keySeen).toBe(false);
    expect(process.env['OPENAI_API_KEY']).toBe('sk-users-own');
  });

  it('gives none when asked not to: the client then refuses to start, as it would live', async () => {
    const { agent, written } = await recordOne();
    const { report, error } = await replay({ path: written.path }, agent, {
      placeholderCredentials: false,
    });
    expect(report.placeholderCredentials).toEqual([]);
    expect(String(error)).toMatch(/OPENAI_API_KEY/);
  });
});
