// Keeps the rules of docs/ARCHITECTURE.md true: imports flow main → cli → mcp → {posts, results,
// client, config, output, listen, sandbox} → wire (nothing below imports cli), the client and the
// sandbox meet only on the wire, the format is decided in output alone, every command has one
// lazy boundary, and nothing heavy is on the static start-up path.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

interface Import {
  specifier: string;
  typeOnly: boolean;
  dynamic: boolean;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+['"]([^'"]+)['"]/gm)) {
    out.push({ specifier: m[3]!, typeOnly: Boolean(m[2]), dynamic: false });
  }
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push({ specifier: m[1]!, typeOnly: false, dynamic: false });
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ specifier: m[1]!, typeOnly: false, dynamic: true });
  return out;
}

function area(file: string): string {
  return relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');
}

function target(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return resolve(dirname(from), specifier).replace(/\.js$/, '.ts');
}

const ALLOWED: Record<string, string[]> = {
  wire: ['wire'],
  client: ['client', 'wire'],
  // Local-file mechanics (lock files, atomic writes) shared by config and the sandbox.
  files: ['files'],
  config: ['config', 'files', 'wire'],
  output: ['output', 'wire'],
  listen: ['listen', 'wire'],
  sandbox: ['sandbox', 'files', 'wire'],
  // The domains: pure logic over the client's types and the wire, reusable by the MCP server.
  posts: ['posts', 'client', 'wire'],
  results: ['results', 'posts', 'client', 'wire'],
  accounts: ['accounts', 'client', 'wire'],
  // The MCP server uses the domains, the client and config, never the command line or output.
  mcp: ['mcp', 'posts', 'results', 'accounts', 'client', 'config', 'listen', 'wire'],
  // What `socialpub demo` runs against: a sandbox and a listener on one manual clock.
  demo: ['demo', 'sandbox', 'listen', 'wire'],
};

describe('architecture', () => {
  it('imports flow one way and the client and sandbox meet only on the wire', () => {
    const violations: string[] = [];
    for (const file of files(SRC)) {
      const from = area(file);
      const allowed = ALLOWED[from];
      if (!allowed) continue;
      for (const imp of importsOf(file)) {
        const t = target(file, imp.specifier);
        if (!t) continue;
        const to = area(t);
        if (!allowed.includes(to)) violations.push(`${relative(SRC, file)} imports ${imp.specifier} (${from} → ${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('decides the output format in output alone', () => {
    const offenders: string[] = [];
    for (const file of files(join(SRC, 'cli'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\.format\s*[!=]==|format\s*[!=]==\s*'(json|ndjson|tsv|table)'/g)) offenders.push(`${relative(SRC, file)}: ${m[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it('gives every command one lazy boundary: the action imports the run module, which imports statically', () => {
    const offenders: string[] = [];
    for (const file of files(join(SRC, 'cli', 'commands'))) {
      const rel = relative(SRC, file);
      const dynamic = importsOf(file).filter((i) => i.dynamic);
      const isDefinition = /\/(index|[a-z-]+)\.ts$/.test(rel) && !/\.run\.ts$|\/run\.ts$/.test(rel);
      for (const d of dynamic) {
        // A definition may import its own run module; a run module imports nothing lazily.
        if (isDefinition && /^\.\/([a-z-]+\.run|run)\.js$/.test(d.specifier)) continue;
        // The command tree loads each noun's definitions when the command line names it.
        if (rel === 'cli/commands/index.ts' && /^\.\/[a-z-]+\/index\.js$/.test(d.specifier)) continue;
        offenders.push(`${rel} → import('${d.specifier}')`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('sends requests through one transport (node:http): no source imports undici', () => {
    const all = files(SRC);
    expect(all.length).toBeGreaterThan(50);
    const offenders = all.filter((f) => importsOf(f).some((i) => i.specifier === 'undici' || i.specifier.startsWith('undici/')));
    expect(offenders.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('keeps heavy packages off the static start-up path of the command tree', () => {
    const heavy = ['zod', 'undici', 'conf', '@inquirer/prompts', '@inquirer/input', '@inquirer/password', '@inquirer/confirm', '@inquirer/checkbox', '@inquirer/select', 'ora', 'cli-table3', 'chalk', 'fast-check', 'jq-web', 'string-width', '@modelcontextprotocol/sdk'];
    const seen = new Set<string>();
    const offenders: string[] = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const imp of importsOf(file)) {
        if (imp.typeOnly || imp.dynamic) continue;
        const t = target(file, imp.specifier);
        if (t) walk(t);
        else if (heavy.some((h) => imp.specifier === h || imp.specifier.startsWith(h + '/'))) offenders.push(`${relative(SRC, file)} → ${imp.specifier}`);
      }
    };
    walk(join(SRC, 'main.ts'));
    walk(join(SRC, 'cli', 'run.ts'));
    expect(seen.size).toBeGreaterThan(5);
    expect(offenders).toEqual([]);
    // Flag resolution, error reporting, profile resolution and output load when used, not for --help.
    const lazy = ['cli/globals.ts', 'cli/errors.ts', 'config/resolve.ts', 'client/errors.ts', 'output/output.ts', 'output/writers.ts', 'output/jq.ts', 'output/pager.ts'].map((f) => join(SRC, f));
    expect(lazy.filter((f) => seen.has(f)).map((f) => relative(SRC, f))).toEqual([]);
  });

  it('keeps the bin a CommonJS file that needs only node:fs, node:path and node:tty before the program', () => {
    const bin = readFileSync(join(SRC, '..', 'bin', 'socialpub.js'), 'utf8');
    expect(JSON.parse(readFileSync(join(SRC, '..', 'bin', 'package.json'), 'utf8')).type).toBe('commonjs');
    const required = [...bin.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    expect(required.filter((r) => r!.startsWith('node:')).sort()).toEqual(['node:fs', 'node:path', 'node:tty']);
    expect(bin).not.toMatch(/^\s*import[\s(]/m);
    // The program (and everything it loads) only when no pre-rendered output answers: the compile
    // cache first, so that it covers the program's own files.
    expect(required.filter((r) => !r!.startsWith('node:'))).toEqual(['../dist/compile-cache.cjs', '../dist/main.cjs']);
    expect(bin.indexOf("require('../dist/")).toBeGreaterThan(bin.indexOf('const text = prerendered(argv)'));
  });

  it('uses no private internals of Node, commander or zod in src/ or bin/', () => {
    const sources = [...files(SRC), join(SRC, '..', 'bin', 'socialpub.js')];
    expect(sources.length).toBeGreaterThan(100);
    expect(privateUses(sources.map((f) => ({ file: relative(join(SRC, '..'), f), text: readFileSync(f, 'utf8') })))).toEqual([]);
  });

  it('sees each private name it forbids', () => {
    const samples = [
      'Module.prototype._compile = f;',
      'Module._resolveFilename(id, mod);',
      'require.extensions = M._extensions;',
      'delete Module._cache[file];',
      "const res = (socket as { _httpMessage?: unknown })._httpMessage;",
      'return cmd._hidden;',
      'let def = schema._zod.def;',
      'declare const require: (id: string) => unknown;',
      "cmd.emit('afterHelp', context);",
      '(cmd as unknown as EventEmitter).emit("beforeHelp", context);',
    ];
    const found = privateUses(samples.map((text, i) => ({ file: `sample${i}.ts`, text })));
    expect(found.map((f) => f.split(':')[0])).toEqual(samples.map((_, i) => `sample${i}.ts`));
    // Public names that merely look alike stay allowed.
    expect(privateUses([{ file: 'ok.ts', text: "cache._cacheSize; program.addHelpText('after', t); schema.def; cmd.hidden; emitter.emit('error', e);" }])).toEqual([]);
  });
});

/**
 * Private internals: an upgrade may change or remove them without notice. Module's loader hooks,
 * an http socket's response, commander's hidden flag and help events, zod's internals, and an
 * ESM file that declares itself a require.
 */
const PRIVATE = [
  /\._compile\b/,
  /\b_resolveFilename\b/,
  /\b_extensions\b/,
  /\b(Module|M)\._cache\b/,
  /\b_httpMessage\b/,
  /\._hidden\b/,
  /\b_zod\b/,
  /\bdeclare\s+const\s+require\b/,
  /\.emit\(\s*['"](after|before)(All)?Help['"]/,
];

function privateUses(sources: Array<{ file: string; text: string }>): string[] {
  return sources.flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, i) => (PRIVATE.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}
