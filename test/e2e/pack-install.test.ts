// `npm run test:pack` (called by .ci/run; too slow for `npm test`): packs the clone the way
// `npm publish` would (prepack builds), installs the tarball globally with an empty cache and no
// network, and runs it from another folder; then compiles a TypeScript consumer against it.
import { execFileSync, spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { ROOT } from './ensure-built.js';
import { deadRelativeLinks } from '../helpers/markdown-links.js';

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

/** What the installed command runs with: found on PATH the way a user's shell finds it. */
function installedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv({
    PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:${process.env.PATH}`,
    HOME: join(tmp, 'home'),
    SOCIALPUB_CONFIG_DIR: join(tmp, 'config'),
    NO_COLOR: '1',
    ...extra,
  });
}

/** The installed command, as CI runs it: no terminal, stdin empty (or `input`). */
function socialpub(args: string[], extra: Record<string, string> = {}, input?: string): SpawnSyncReturns<string> {
  return spawnSync('socialpub', args, { cwd: elsewhere, encoding: 'utf8', timeout: 60_000, env: installedEnv(extra), input: input ?? '' });
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
  // Packing builds the whole program (types, bundle, docs): minutes on a loaded two-core machine.
}, 600_000);

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

  it('every relative link of the installed README and skill leads to a file the tarball holds', () => {
    const paths = packed.files.map((f) => f.path);
    const installed = join(prefix, 'lib', 'node_modules', 'socialpub');
    for (const doc of paths.filter((p) => /\.md$/i.test(p))) {
      expect(deadRelativeLinks(doc, readFileSync(join(installed, doc), 'utf8'), paths), doc).toEqual([]);
    }
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

describe('the installed command against the installed sandbox, in both dialects', () => {
  let sandbox: ChildProcess;
  let ready: { baseUrl: string; workspaces: Array<{ name: string; apiKey: string }> };

  beforeAll(async () => {
    sandbox = spawn('socialpub', ['sandbox', '--port', '0', '--json', '--seed', '7', '--fixtures', '30'], { cwd: elsewhere, env: installedEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    ready = await new Promise((resolve, reject) => {
      let out = '';
      sandbox.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))) as typeof ready);
      });
      sandbox.on('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready`)));
    });
    const key = ready.workspaces.find((w) => w.name === 'demo')!.apiKey;
    for (const [profile, api] of [['own', 'socialpub'], ['sp', 'syncpostly']]) {
      const r = socialpub(['auth', 'login', '--with-key', '--base-url', ready.baseUrl, '--api', api!, '-p', profile!], { CI: 'true' }, `${key}\n`);
      expect(r.status, r.stderr).toBe(0);
    }
  }, 60_000);

  afterAll(() => {
    sandbox?.kill();
  });

  it.each(['own', 'sp'])('profile %s: posts create, view, list, and results list through the jq the package ships', (profile) => {
    const created = socialpub(['-p', profile, 'posts', 'create', '--platform', 'bluesky', '--text', `from the package (${profile})`, '-q'], { CI: 'true' });
    expect(created.status, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^post_/);
    const view = socialpub(['-p', profile, 'posts', 'view', id], { CI: 'true' });
    expect(view.status, view.stderr).toBe(0);
    expect(view.stdout).toContain(`from the package (${profile})`);
    const list = socialpub(['-p', profile, 'posts', 'list', '--json', '--jq', '.[] | .id'], { CI: 'true' });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout.split('\n')).toContain(id);
    const results = socialpub(['-p', profile, 'results', 'list', '--all', '--json', '--jq', '.[] | .id'], { CI: 'true' });
    expect(results.status, results.stderr).toBe(0);
    expect(results.stdout.trim().split('\n')).toHaveLength(30);
    expect(results.stderr).toBe('');
  });

  it('posts check --from-file reads a 2,000-row CSV, names the bad rows by line, exit 2', () => {
    const rows = ['at,platforms,text', ...Array.from({ length: 2000 }, (_, i) => `2099-01-01 09:00,bluesky,${i === 1233 ? 'x'.repeat(400) : `row ${i}`}`)];
    writeFileSync(join(elsewhere, 'bulk.csv'), `${rows.join('\n')}\n`);
    const r = socialpub(['posts', 'check', '--from-file', 'bulk.csv', '--tz', 'UTC'], { CI: 'true' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^line 1235 bluesky: /m);
  });

  it('mcp answers initialize and tools/list over stdio', () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack-test', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const r = socialpub(['-p', 'sp', 'mcp'], {}, messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    expect(r.status, r.stderr).toBe(0);
    const replies = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: { tools?: Array<{ name: string }>; instructions?: string } });
    expect(replies.find((m) => m.id === 1)?.result.instructions).toBeTruthy();
    expect(replies.find((m) => m.id === 2)?.result.tools?.map((t) => t.name)).toContain('list_posts');
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
