// `ai` is an optional peer of @runback/sdk: the subpath may use its types, never its code. With
// verbatimModuleSyntax only a declaration-level `import type` is erased (an inline
// `import { type X }` still loads the module), so that is the one form allowed here.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const folder = fileURLToPath(new URL('.', import.meta.url));
// Test support runs only under the tests, which have the AI SDK installed.
const testSupport = new Set([
  'test-run.ts',
  'replay-run.ts',
  'openai-fixtures.ts',
  'mock-openai-server.ts',
]);
const shipped = readdirSync(folder).filter(
  (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !testSupport.has(name),
);

const AI_SDK_MODULE = /^(?:ai|@ai-sdk\/.+)$/;

/** Every import and re-export of the file (comments aside): its module and whether it is type-only. */
function importsOf(text: string): { module: string; typeOnly: boolean }[] {
  const source = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const statements = /\b(import|export)\s+(type\s+)?[^;]*?\bfrom\s+['"]([^'"]+)['"]/g;
  const bare = /\bimport\s+['"]([^'"]+)['"]/g;
  return [
    ...[...source.matchAll(statements)].map((m) => ({
      module: m[3] ?? '',
      typeOnly: m[2] !== undefined,
    })),
    ...[...source.matchAll(bare)].map((m) => ({ module: m[1] ?? '', typeOnly: false })),
  ];
}

describe('the @runback/sdk/ai subpath', () => {
  it('ships the entry and its modules', () => {
    expect(shipped).toContain('index.ts');
    expect(shipped).toContain('middleware.ts');
  });

  it.each(shipped)('%s imports the AI SDK for types only', (name) => {
    const imports = importsOf(readFileSync(`${folder}/${name}`, 'utf8'));
    const loaded = imports.filter((entry) => AI_SDK_MODULE.test(entry.module) && !entry.typeOnly);
    expect(loaded).toEqual([]);
  });

  it('recognises a value import as one', () => {
    expect(importsOf("import { wrapLanguageModel } from 'ai';")).toEqual([
      { module: 'ai', typeOnly: false },
    ]);
    expect(importsOf("import { type LanguageModelV3 } from '@ai-sdk/provider';")).toEqual([
      { module: '@ai-sdk/provider', typeOnly: false },
    ]);
    expect(importsOf("import type { LanguageModelMiddleware } from 'ai';")).toEqual([
      { module: 'ai', typeOnly: true },
    ]);
  });
});
