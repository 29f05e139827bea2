// `npm run test:pack` (called by .ci/run; too slow for `npm test`): packs the clone the way
// `npm publish` would (prepack builds), installs the tarball globally with an empty cache and no
// network, and runs it from another folder; then compiles a TypeScript consumer against it.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/main.js';
import { ROOT } from './ensure-built.js';

const MAX_PACKED_BYTES = 1.5e6;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-pack-'));
const prefix = join(tmp, 'prefix');
const elsewhere = join(tmp, 'elsewhere');
let packed: PackResult;
let tarball: string;

/** npm's own settings from `npm run` (prefix, cache, …) must not leak into the installs. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', ...extra };
}

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The installed command, found on PATH the way a user's shell finds it. */
function socialpub(args: string[]): SpawnSyncReturns<string> {
  return spawnSync('socialpub', args, {
    cwd: elsewhere,
    encoding: 'utf8',
    timeout: 60_000,
    env: cleanEnv({
      PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:${process.env.PATH}`,
      HOME: join(tmp, 'home'),
      SOCIALPUB_CONFIG_DIR: join(tmp, 'config'),
      NO_COLOR: '1',
    }),
  });
}

function describeSize(p: PackResult): string {
  const groups = new Map<string, number>();
  for (const f of p.files) {
    const part = f.path.startsWith('dist/chunks/') ? 'dist/chunks' : f.path.startsWith('dist/types/') ? 'dist/types (.d.ts)' : f.path.split('/').length > 1 ? f.path.split('/').slice(0, 2).join('/') : f.path;
    groups.set(part, (groups.get(part) ?? 0) + f.size);
  }
  const rows = [...groups].sort((a, b) => b[1] - a[1]).map(([part, bytes]) => `  ${part.padEnd(28)} ${(bytes / 1024).toFixed(1).padStart(8)} kB  ${((100 * bytes) / p.unpackedSize).toFixed(1).padStart(5)}%`);
  return `packed ${(p.size / 1000).toFixed(1)} kB, unpacked ${(p.unpackedSize / 1000).toFixed(1)} kB, ${p.files.length} files; share of the unpacked size:\n${rows.join('\n')}`;
}

beforeAll(() => {
  mkdirSync(elsewhere);
  // As on a clean clone: no dist/. npm pack runs prepack, so this checks that packing builds first.
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const out = npm(['pack', '--json', '--pack-destination', tmp], ROOT);
  packed = (JSON.parse(out.slice(out.indexOf('['))) as PackResult[])[0]!;
  tarball = join(tmp, packed.filename);
  console.log(describeSize(packed));
  npm(['install', '--global', '--offline', '--cache', join(tmp, 'empty-cache'), '--prefix', prefix, tarball], elsewhere);
}, 240_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it(`holds the build, the man page, the declarations and the licence, and stays under ${MAX_PACKED_BYTES / 1e6} MB`, () => {
    const paths = packed.files.map((f) => f.path);
    for (const p of ['bin/socialpub.js', 'dist/main.cjs', 'dist/compile-cache.cjs', 'dist/cli/entry.cjs', 'dist/sandbox/index.cjs', 'dist/types/sandbox/index.d.ts', 'dist/man/socialpub.1', 'dist/THIRD-PARTY-LICENSES.txt', 'completions/socialpub.bash', 'LICENSE', 'README.md', 'package.json']) {
      expect(paths).toContain(p);
    }
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/'))).toEqual([]);
    expect(packed.size).toBeLessThan(MAX_PACKED_BYTES);
  });

  it('installs offline with an empty cache, fetching nothing', () => {
    const installed = join(prefix, 'lib', 'node_modules', 'socialpub');
    expect(existsSync(join(installed, 'dist', 'main.cjs'))).toBe(true);
    expect(existsSync(join(installed, 'node_modules'))).toBe(false);
  });
});

describe('the installed command, run from another folder', () => {
  it('--version', () => {
    const r = socialpub(['--version']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${VERSION}\n`);
  });

  it('--help starts an installed user at `socialpub demo`, with no npm script in sight', () => {
    const r = socialpub(['--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Start here:\n  socialpub demo');
    expect(r.stdout).not.toContain('npm run');
  });

  it('demo runs the whole walk-through against its in-process sandbox', () => {
    const r = socialpub(['demo']);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    expect(r.stdout + r.stderr).toContain('socialpub posts schedule');
  });

  it('completion bash prints the script the package ships', () => {
    const r = socialpub(['completion', 'bash']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(prefix, 'lib', 'node_modules', 'socialpub', 'completions', 'socialpub.bash'), 'utf8'));
  });

  it('help reference lists every command', () => {
    const r = socialpub(['help', 'reference']);
    expect(r.status, r.stderr).toBe(0);
    for (const name of ['posts create', 'posts schedule', 'results wait', 'listen', 'sandbox', 'demo']) expect(r.stdout).toContain(`\nsocialpub ${name} — `);
  });

  it('the man page is installed where man looks, and is the one the installed command renders', () => {
    const page = join(prefix, 'share', 'man', 'man1', 'socialpub.1');
    expect(readFileSync(page, 'utf8')).toBe(socialpub(['help', 'reference', '--man']).stdout);
    const hasMan = spawnSync('sh', ['-c', 'command -v man']).status === 0;
    if (!hasMan) return; // The content check above stands; CI's machine has man-db.
    const found = spawnSync('man', ['-w', 'socialpub'], { encoding: 'utf8', env: { ...process.env, MANPATH: join(prefix, 'share', 'man') } });
    // npm links the page there; man names the file the link points to.
    expect(found.stdout.trim()).toBe(realpathSync(page));
  });
});

describe('a TypeScript project using socialpub/sandbox', () => {
  const project = join(tmp, 'consumer');
  let compiled: SpawnSyncReturns<string>;

  beforeAll(() => {
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    npm(['install', '--offline', '--cache', join(tmp, 'empty-cache-2'), tarball], project);
    // The project's own compiler and Node types, linked from this clone (nothing to download).
    for (const dep of ['typescript', '@types/node']) {
      mkdirSync(dirname(join(project, 'node_modules', dep)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
    }
    // Strict, with the library's declarations checked too (skipLibCheck off). bad.ts is the
    // control that proves the types are real: one compile (tsc is slow) covers both files.
    const compilerOptions = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false, types: ['node'], outDir: 'out' };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts', 'bad.ts'] }));
    writeFileSync(
      join(project, 'index.ts'),
      `import { startSandbox, type Sandbox } from 'socialpub/sandbox';
const sandbox: Sandbox = await startSandbox({ port: 0, seed: 1 });
const res = await fetch(\`\${sandbox.url}/api/v1/post-results?limit=1\`, { headers: { authorization: \`Bearer \${sandbox.key('demo')}\` } });
console.log(res.status);
await sandbox.close();
`,
    );
    writeFileSync(join(project, 'bad.ts'), `import { startSandbox } from 'socialpub/sandbox';\nexport const wrong = () => startSandbox({ port: 'any' });\n`);
    compiled = spawnSync(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: project, encoding: 'utf8' });
  }, 120_000);

  it('compiles against the package declarations with no error (strict, library checks on), and runs', () => {
    const errors = compiled.stdout.split('\n').filter((l) => /error TS/.test(l));
    expect(errors.filter((l) => !l.startsWith('bad.ts')), compiled.stdout + compiled.stderr).toEqual([]);
    // tsc still emits when a file has errors; the good file runs against the installed package.
    const run = spawnSync(process.execPath, [join(project, 'out', 'index.js')], { cwd: project, encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('200\n');
  });

  it('the declarations are real types, not any: a wrong option is a compile error', () => {
    expect(compiled.status).not.toBe(0);
    expect(compiled.stdout).toMatch(/^bad\.ts\(2,\d+\): error TS2322/m);
  });
});
