import { describe, expect, it } from 'vitest';
import {
  PLACEHOLDER_CREDENTIAL,
  carriesPlaceholder,
  placeholderNames,
  recordedProviders,
} from './placeholder-credentials.js';

const llm = (provider: unknown) => ({ type: 'llm', model: { model_id: 'm', provider } });

describe('recordedProviders', () => {
  it('names each provider the model calls went to once, by the part before the first dot', () => {
    const events = [
      { type: 'run', phase: 'start' },
      llm('openai'),
      llm('openai.chat'),
      llm('OpenAI.Responses'),
      llm('anthropic'),
      { type: 'env', kind: 'fetch', model: { provider: 'groq' } },
    ];
    expect(recordedProviders(events)).toEqual(['anthropic', 'openai']);
  });

  it('ignores providers it has no key variables for, and malformed model members', () => {
    const events = [
      llm('my-gateway'),
      llm(7),
      { type: 'llm', model: null },
      { type: 'llm' },
      llm('__proto__'),
    ];
    expect(recordedProviders(events)).toEqual([]);
  });
});

describe('placeholderNames', () => {
  it('fills every key variable of a provider that is unset, empty or blank', () => {
    expect(
      placeholderNames(['openai', 'google'], { GOOGLE_API_KEY: '  ', GEMINI_API_KEY: '' }),
    ).toEqual([
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
      'GOOGLE_GENERATIVE_AI_API_KEY',
      'OPENAI_API_KEY',
    ]);
  });

  it('never replaces a key the user set', () => {
    expect(placeholderNames(['openai', 'anthropic'], { OPENAI_API_KEY: 'sk-live' })).toEqual([
      'ANTHROPIC_API_KEY',
    ]);
    expect(placeholderNames([], {})).toEqual([]);
  });
});

describe('carriesPlaceholder', () => {
  it('finds the placeholder anywhere in a header value or URL', () => {
    expect(carriesPlaceholder(`Bearer ${PLACEHOLDER_CREDENTIAL}`)).toBe(true);
    expect(carriesPlaceholder(`https://x.test/?key=${PLACEHOLDER_CREDENTIAL}`)).toBe(true);
    expect(carriesPlaceholder('Bearer sk-live')).toBe(false);
  });
});
