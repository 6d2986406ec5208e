// node --test: the packages as a user installs them from the registry. Every publishable
// package is packed once with `pnpm pack` (which turns workspace: ranges into versions), then
// @runback/verify, @runback/cli and @runback/sdk are each installed alone into a fresh npm
// project whose other @runback/* names resolve to those tarballs (third-party dependencies come
// from the registry). Each project runs its bin on corpus files, import()s and require()s
// every installed @runback package and subpath, and type-checks a file using the public API
// with skipLibCheck: false under NodeNext and Bundler resolution. Run after `pnpm build`.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

const run = promisify(execFile);
const repo = new URL('../', import.meta.url).pathname;
const packagesDir = join(repo, 'packages');
const corpus = join(packagesDir, 'verify/test/vectors');
const rootManifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const typescriptVersion = rootManifest.devDependencies.typescript;
const typesNodeVersion = rootManifest.devDependencies['@types/node'];

/** Publishable packages: name -> folder. */
const publishable = new Map();
for (const dir of readdirSync(packagesDir).sort()) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  if (!manifest.private) publishable.set(manifest.name, join(packagesDir, dir));
}

const work = mkdtempSync(join(tmpdir(), 'runback-pack-install-'));
const tarballs = new Map();
after(() => rmSync(work, { recursive: true, force: true }));

/** Runs a command; resolves to {code, stdout, stderr} whatever the exit code. */
async function exec(file, args, cwd) {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

function describeRun(what, result) {
  return `${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

const packing = (async () => {
  const dest = join(work, 'tarballs');
  await Promise.all(
    [...publishable].map(async ([name, dir]) => {
      const packed = await exec('pnpm', ['pack', '--json', '--pack-destination', dest], dir);
      assert.equal(packed.code, 0, describeRun(`pnpm pack of ${name}`, packed));
      const info = JSON.parse(packed.stdout);
      tarballs.set(name, info.filename);
    }),
  );
})();

/** Creates a fresh npm project that depends on `name` alone and installs it. */
async function installAlone(name, label) {
  await packing;
  const dir = join(work, label);
  const overrides = Object.fromEntries([...tarballs].map(([pkg, file]) => [pkg, `file:${file}`]));
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: `pack-install-${label}`,
        private: true,
        type: 'module',
        dependencies: { [name]: `file:${tarballs.get(name)}` },
        devDependencies: { typescript: typescriptVersion, '@types/node': typesNodeVersion },
        overrides,
      },
      null,
      2,
    ),
  );
  const installed = await exec(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    dir,
  );
  assert.equal(installed.code, 0, describeRun(`npm install ${name}`, installed));
  return dir;
}

/** Names of @runback packages present in a project's node_modules. */
function installedRunbackPackages(dir) {
  return readdirSync(join(dir, 'node_modules/@runback'))
    .map((d) => `@runback/${d}`)
    .sort();
}

function subpathSpecifiers(dir, name) {
  const manifest = JSON.parse(
    readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'),
  );
  return Object.keys(manifest.exports ?? { '.': null })
    .filter((s) => s !== './package.json')
    .map((s) => (s === '.' ? name : `${name}/${s.slice(2)}`));
}

/** import() and require() of every installed @runback package and subpath from the project. */
async function assertLoadable(dir) {
  const installed = installedRunbackPackages(dir);
  const specs = installed.flatMap((name) => subpathSpecifiers(dir, name));
  const probe = join(dir, 'probe.cjs');
  writeFileSync(
    probe,
    `const out = {};\n(async () => {\n  for (const spec of ${JSON.stringify(specs)}) {\n` +
      `    try {\n      const required = Object.keys(require(spec)).sort();\n` +
      `      const imported = Object.keys(await import(spec)).sort();\n` +
      `      out[spec] = { required, imported };\n` +
      `    } catch (error) { out[spec] = { error: String(error.message).split('\\n')[0], code: error.code }; }\n` +
      `  }\n  process.stdout.write(JSON.stringify(out));\n})();\n`,
  );
  const result = await exec(process.execPath, [probe], dir);
  assert.equal(result.code, 0, describeRun('load probe', result));
  const loaded = JSON.parse(result.stdout);
  for (const spec of specs) {
    const entry = loaded[spec];
    assert.ok(!entry.error, `${spec}: expected it to load, got ${entry.code}: ${entry.error}`);
    // ./preload is loaded for its effect (node --import) and exports nothing.
    if (!spec.endsWith('/preload')) {
      assert.ok(entry.required.length > 0, `${spec}: require() gave no exports`);
    }
    assert.deepEqual(entry.required, entry.imported, `${spec}: require() and import() differ`);
  }
  return installed;
}

/** tsc --noEmit of `source` with skipLibCheck: false under NodeNext and under Bundler. */
async function assertTypeChecks(dir, source) {
  writeFileSync(join(dir, 'use.ts'), source);
  const settings = [
    { module: 'NodeNext', moduleResolution: 'NodeNext' },
    { module: 'ESNext', moduleResolution: 'Bundler' },
  ];
  for (const resolution of settings) {
    const config = `tsconfig.${resolution.moduleResolution.toLowerCase()}.json`;
    writeFileSync(
      join(dir, config),
      JSON.stringify({
        compilerOptions: {
          ...resolution,
          target: 'ES2022',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
        },
        files: ['use.ts'],
      }),
    );
    const tsc = join(dir, 'node_modules/typescript/bin/tsc');
    const checked = await exec(process.execPath, [tsc, '-p', config], dir);
    assert.equal(
      checked.code,
      0,
      describeRun(`tsc --noEmit (${resolution.moduleResolution}, skipLibCheck: false)`, checked),
    );
  }
}

describe('packed tarballs installed alone into fresh npm projects', { concurrency: true }, () => {
  const projects = {};
  before(async () => {
    const [verify, cli, sdk] = await Promise.all([
      installAlone('@runback/verify', 'verify-only'),
      installAlone('@runback/cli', 'cli-only'),
      installAlone('@runback/sdk', 'sdk-only'),
    ]);
    Object.assign(projects, { verify, cli, sdk });
  });

  test('every publishable package packs with versions in place of workspace: ranges', async () => {
    await packing;
    assert.deepEqual([...tarballs.keys()].sort(), [...publishable.keys()].sort());
    for (const [name, file] of tarballs) {
      const listed = await exec('tar', ['-xOzf', file, 'package/package.json'], work);
      assert.equal(listed.code, 0, describeRun(`tar of ${name}`, listed));
      assert.doesNotMatch(listed.stdout, /workspace:/, `${name}'s packed package.json`);
    }
  });

  const cases = [
    { args: ['valid/ed25519-signed.json', '--pubkey', 'keys/producer.pub.pem'], exit: 0 },
    { args: ['valid/ed25519-signed.json'], exit: 2 },
    { args: ['tampered/tool-output-edited.json', '--pubkey', 'keys/producer.pub.pem'], exit: 1 },
  ];

  test('npx runback-verify in the verify-only project gives the corpus exit codes', async () => {
    for (const { args, exit } of cases) {
      const [file, ...rest] = args;
      const argv = [
        '--no-install',
        'runback-verify',
        join(corpus, file),
        ...rest.map((a) => (a.startsWith('keys/') ? join(corpus, a) : a)),
      ];
      const result = await exec('npx', argv, projects.verify);
      assert.equal(result.code, exit, describeRun(`npx runback-verify ${args.join(' ')}`, result));
    }
  });

  test('npx runback verify in the cli-only project gives the corpus exit codes', async () => {
    for (const { args, exit } of cases) {
      const [file, ...rest] = args;
      const argv = [
        '--no-install',
        'runback',
        'verify',
        join(corpus, file),
        ...rest.map((a) => (a.startsWith('keys/') ? join(corpus, a) : a)),
      ];
      const result = await exec('npx', argv, projects.cli);
      assert.equal(result.code, exit, describeRun(`npx runback verify ${args.join(' ')}`, result));
    }
  });

  for (const label of ['verify', 'cli', 'sdk']) {
    test(`import() and require() of every installed package in the ${label}-only project`, async () => {
      const installed = await assertLoadable(projects[label]);
      assert.ok(installed.includes(`@runback/${label}`), `${label} is installed`);
    });
  }

  test('the SDK public API type-checks (NodeNext and Bundler, skipLibCheck: false)', async () => {
    await assertTypeChecks(
      projects.sdk,
      `import * as sdk from '@runback/sdk';\nimport * as journal from '@runback/sdk/journal';\n` +
        `import { verify } from '@runback/verify';\n` +
        `export const names: string[] = [...Object.keys(sdk), ...Object.keys(journal)];\n` +
        `export const check: typeof verify = verify;\n`,
    );
  });

  test('the verify public API type-checks (NodeNext and Bundler, skipLibCheck: false)', async () => {
    await assertTypeChecks(
      projects.verify,
      `import { verify } from '@runback/verify';\nimport * as verifyApi from '@runback/verify';\n` +
        `export const names: string[] = Object.keys(verifyApi);\nexport const check: typeof verify = verify;\n`,
    );
  });
});
