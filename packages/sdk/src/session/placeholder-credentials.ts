// Placeholder credentials for a replay (docs/guides/replay.md, "Replay with no API key"). Model
// clients refuse to start without an API key even when every call they make is answered from
// the record, so a replay gives the program a placeholder for each provider the record used,
// only where the environment has no key of its own. A placeholder never leaves the process: the
// fetch guard (hooks/env) refuses any request that carries one.

/** The value every placeholder credential has: recognisable in a log, useless to a provider. */
export const PLACEHOLDER_CREDENTIAL = 'runback-replay-placeholder-not-a-key';

/**
 * The environment variables each provider's clients read their key from, by the provider name
 * a record's `llm` events carry in `model.provider` (the part before the first `.`, lower-cased:
 * the AI SDK's `openai.chat` and `openai.responses` are `openai`).
 */
export const PROVIDER_KEY_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GOOGLE_API_KEY', 'GEMINI_API_KEY'],
  mistral: ['MISTRAL_API_KEY'],
  groq: ['GROQ_API_KEY'],
  cohere: ['COHERE_API_KEY', 'CO_API_KEY'],
  xai: ['XAI_API_KEY'],
  deepseek: ['DEEPSEEK_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  togetherai: ['TOGETHER_AI_API_KEY', 'TOGETHER_API_KEY'],
  perplexity: ['PERPLEXITY_API_KEY'],
  fireworks: ['FIREWORKS_API_KEY'],
  cerebras: ['CEREBRAS_API_KEY'],
  'azure-openai': ['AZURE_OPENAI_API_KEY', 'AZURE_API_KEY'],
  azure: ['AZURE_API_KEY', 'AZURE_OPENAI_API_KEY'],
};

/** The providers a record's model calls went to, as keys of PROVIDER_KEY_VARIABLES. */
export function recordedProviders(events: readonly Record<string, unknown>[]): string[] {
  const found = new Set<string>();
  for (const event of events) {
    if (event['type'] !== 'llm') continue;
    const model = event['model'];
    const provider =
      typeof model === 'object' && model !== null
        ? (model as Record<string, unknown>)['provider']
        : undefined;
    if (typeof provider !== 'string') continue;
    const name = provider.split('.')[0]?.toLowerCase() ?? '';
    if (Object.hasOwn(PROVIDER_KEY_VARIABLES, name)) found.add(name);
  }
  return [...found].sort();
}

/**
 * The variables to give a placeholder: those of `providers` that `env` has no usable value for
 * (unset, empty or blank: a CI secret that is not configured expands to an empty string). A key
 * the user set is never replaced.
 */
export function placeholderNames(
  providers: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const names = new Set<string>();
  for (const provider of providers) {
    for (const name of PROVIDER_KEY_VARIABLES[provider] ?? []) {
      const value = env[name];
      if (value === undefined || value.trim() === '') names.add(name);
    }
  }
  return [...names].sort();
}

/** Whether a header value, URL or body text carries a placeholder credential. */
export function carriesPlaceholder(text: string): boolean {
  return text.includes(PLACEHOLDER_CREDENTIAL);
}
