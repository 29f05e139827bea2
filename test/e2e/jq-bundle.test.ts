// jq-web is CommonJS that finds jq.wasm beside itself; once bundled into an ESM chunk that only
// works through the bundle script's __dirname define and the stripped wasm copied beside the
// chunks. This bundles jq.ts with the bundle script's own flags and runs it from a bare folder
// (no node_modules), as the installed package would.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'socialpub-jq-bundle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function bundleFlag(name: string): string {
  const script = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.bundle as string;
  const m = new RegExp(`--${name}[:=]("([^"\\\\]|\\\\.)*"|\\S+)`).exec(script);
  if (!m) throw new Error(`the bundle script has no --${name}`);
  return m[1]!.replace(/^"|"$/g, '').replace(/\\"/g, '"');
}

describe('jq in the bundle', () => {
  it('runs from bundled chunks with the stripped wasm beside them', async () => {
    const entry = join(tmp, 'entry.ts');
    writeFileSync(
      entry,
      `const { compileJq } = await import(${JSON.stringify(join(ROOT, 'src/output/jq.ts'))});
       const p = await compileJq('.id, (.tags | length)');
       process.stdout.write(JSON.stringify([p.run({ id: 'res_1', tags: [1, 2] }), p.runEach([{ id: 'a', tags: [] }, { id: 'b', tags: [0] }])]));`,
    );
    const [defineKey, defineValue] = bundleFlag('define').split('=') as [string, string];
    await build({
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.18',
      outdir: join(tmp, 'dist'),
      chunkNames: 'chunks/[name]-[hash]',
      define: { [defineKey]: defineValue },
      banner: { js: bundleFlag('banner:js') },
      logLevel: 'silent',
    });
    execFileSync(process.execPath, [join(ROOT, 'test/helpers/copy-jq-wasm.mjs'), join(tmp, 'dist/chunks')], { cwd: ROOT });
    expect(statSync(join(tmp, 'dist/chunks/jq.wasm')).size).toBeLessThan(1_200_000);
    const out = execFileSync(process.execPath, [join(tmp, 'dist/entry.js')], { cwd: tmp, env: { PATH: process.env.PATH ?? '' } }).toString();
    expect(JSON.parse(out)).toEqual([['res_1', '2'], ['a', '0', 'b', '1']]);
  });
});
