// ESLint blocks that keep the SDK's layers (layers.json) importing only downward: for each
// top-level folder of src/, a `no-restricted-imports` pattern naming every folder of its own
// level or above (tests excepted). Used by the root eslint.config.js.
import { readFileSync } from 'node:fs';

const { levels } = JSON.parse(readFileSync(new URL('./layers.json', import.meta.url), 'utf8'));

/** One block per layer folder, for files matched relative to `prefix` (the repo root's view). */
export function sdkLayerZones(prefix = 'packages/sdk/') {
  return levels.flatMap((level, depth) =>
    level.map((folder) => {
      const higher = levels
        .slice(depth)
        .flat()
        .filter((name) => name !== folder);
      return {
        files: [`${prefix}src/${folder}/**/*.ts`],
        // Tests may drive the layers above the one they test; the layering is production code's.
        ignores: ['**/*.test.ts'],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                {
                  regex: `(^|/)(${higher.join('|')})/`,
                  message: `sdk/src/${folder} sits below ${higher.join(', ')} (packages/sdk/layers.json): import only lower layers.`,
                },
                {
                  regex: '^@runback/sdk(/|$)',
                  message:
                    'The SDK imports its own modules by relative path, not through its exports.',
                },
              ],
            },
          ],
        },
      };
    }),
  );
}
