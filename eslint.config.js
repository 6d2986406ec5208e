// Flat ESLint config shared by every package (each package runs `eslint .`).
//
// TypeScript is linted with type information (typescript-eslint's recommendedTypeChecked over
// each package's own tsconfig.json). Import guards, each a separate rule so that no block
// overrides another's options:
// - @typescript-eslint/no-restricted-imports: what production files (src/, minus tests and test
//   support) may not import: node:* in the trust core, test files and test support anywhere,
//   and a package's own devDependencies (computed from its package.json below).
// - no-restricted-imports: the SDK's layer zones (the marked section further down).
import js from '@eslint/js';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';
import { sdkLayerZones } from './packages/sdk/layer-zones.js';

const root = import.meta.dirname;

/** Files that ship: TypeScript under a package's src/, except tests and test support. */
const TEST_FILES = [
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/*.test-support.ts',
  '**/test/**',
  '**/*.bench.ts',
];

/** The trust core: no I/O, no clock, no global state, no node:* import (docs/spec.md §1). */
const TRUST_CORE = ['canonical', 'chain', 'replay-digest', 'sign', 'verify'];
/** canonical's one exception: SHA-256 through node:crypto on Node (the browser build uses noble). */
const TRUST_CORE_NODE_FILES = ['packages/canonical/src/sha256-node.ts'];

const NODE_BUILTINS = [
  ...new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]),
];

const testImports = {
  group: [
    '**/test/**',
    '**/test-support/**',
    '**/*.test-support*',
    '**/*.test*',
    '**/mock-*',
    '**/mock/**',
  ],
  message: 'Production code must not import tests, test support or mocks (house rule 6).',
};

/** Workspace members with a package.json: packages/* and apps/*. */
function workspaceMembers() {
  const members = [];
  for (const group of ['packages', 'apps']) {
    let names = [];
    try {
      names = readdirSync(join(root, group), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        const manifest = JSON.parse(readFileSync(join(root, group, name, 'package.json'), 'utf8'));
        members.push({ dir: `${group}/${name}`, name, group, manifest });
      } catch {
        // not a package (no package.json yet)
      }
    }
  }
  return members;
}

/** One block per member: the imports its production files may not use. */
function productionImportGuards() {
  return workspaceMembers()
    .map(({ dir, name, group, manifest }) => {
      const runtime = new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
        ...Object.keys(manifest.optionalDependencies ?? {}),
      ]);
      const devOnly = Object.keys(manifest.devDependencies ?? {}).filter((d) => !runtime.has(d));
      const patterns = [testImports];
      if (devOnly.length > 0) {
        patterns.push({
          group: devOnly.flatMap((d) => [d, `${d}/**`]),
          message: `A devDependency of ${manifest.name} is not installed for its users: declare it in dependencies or keep it to tests.`,
          // Types vanish from the JavaScript; a type that leaks into the published .d.ts is caught
          // by scripts/check-install.js (tsc with skipLibCheck: false in a fresh project).
          allowTypeImports: true,
        });
      }
      const trustCore = group === 'packages' && TRUST_CORE.includes(name);
      const nodeFiles = TRUST_CORE_NODE_FILES.filter((f) => f.startsWith(`${dir}/`));
      const base = {
        files: [`${dir}/src/**/*.ts`, `${dir}/src/**/*.tsx`],
        ignores: TEST_FILES,
      };
      const blocks = [
        {
          ...base,
          ignores: [...TEST_FILES, ...(trustCore ? nodeFiles : [])],
          rules: {
            '@typescript-eslint/no-restricted-imports': [
              'error',
              {
                paths: trustCore
                  ? NODE_BUILTINS.map((n) => ({
                      name: n,
                      message: `The trust core does no I/O and runs in browsers: no ${n} (house rule 1).`,
                    }))
                  : [],
                patterns,
              },
            ],
            ...(trustCore
              ? {
                  'no-restricted-globals': [
                    'error',
                    ...['process', 'Buffer', 'require', '__dirname', '__filename'].map((g) => ({
                      name: g,
                      message: `The trust core runs in browsers and reads no environment: no ${g} (house rule 1).`,
                    })),
                  ],
                }
              : {}),
          },
        },
      ];
      if (trustCore && nodeFiles.length > 0) {
        // The one file allowed node:crypto still may not reach tests or devDependencies.
        blocks.push({
          files: nodeFiles,
          rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
        });
      }
      return blocks;
    })
    .flat();
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      'coverage/**',
      '**/coverage/**',
      '**/*.d.ts',
      // Scratch files tsup and vite write beside their config while a build runs; lint runs
      // beside the package's own build and must not read them.
      '**/*.bundled_*.mjs',
      '**/*.timestamp-*.mjs',
      // AssemblyScript (its own types and builtins), compiled by its own compiler; the module
      // it compiles to is checked against it by packages/verify/scripts/build-wasm.js --check.
      'packages/verify/wasm/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // Each file is checked with the nearest tsconfig.json; the root build config has none.
        projectService: {
          allowDefaultProject: ['tsup.base.ts'],
          defaultProject: 'tsconfig.base.json',
        },
        tsconfigRootDir: root,
      },
    },
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
    // Tests handle parsed JSON, mocks and fakes, which are `any` by nature, and async callbacks
    // that await nothing; the type-aware rules that only restate that stay off there.
    files: TEST_FILES,
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // verify's strict JSON reader stops its scan by throwing a plain Stop value (an internal
    // signal caught a few frames up, never an error a caller sees).
    files: ['packages/verify/src/json/**/*.ts'],
    rules: {
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'file', name: 'Stop' }] }],
    },
  },
  {
    // Tool configuration files must default-export by their tools' contract.
    files: ['**/*.config.ts', '**/*.config.js', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  ...productionImportGuards(),

  // ── SDK layer zones (packages/sdk/src) ──────────────────────────────────────────────────
  // Core `no-restricted-imports` blocks per SDK folder go here, so that each layer imports
  // only the layers below it. (The import guards above use the typescript-eslint rule of the
  // same name, so these blocks do not override them.)
  ...sdkLayerZones(),
  // ── end of SDK layer zones ──────────────────────────────────────────────────────────────

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
);
