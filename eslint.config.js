// Flat ESLint config shared by every package (each package runs `eslint .`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { sdkLayerZones } from './packages/sdk/layer-zones.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only (house rule 3).' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Tool configuration files must default-export by their tools' contract.
    files: ['**/*.config.ts', '**/*.config.js', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'URL',
          'Buffer',
          'fetch',
          'Request',
          'Response',
          'Headers',
          'TextEncoder',
          'TextDecoder',
          'crypto',
          'performance',
          'structuredClone',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'setImmediate',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  // The SDK's layer zones: each folder of packages/sdk/src imports only the layers below it.
  ...sdkLayerZones(),
);
