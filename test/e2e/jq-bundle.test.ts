// jq-web is CommonJS that finds jq.wasm beside itself (its __dirname); once bundled into a chunk
// that only works with the stripped wasm copied beside the chunks. This bundles jq.ts with the
// bundle script's own pipeline (scripts/bundle.mjs) and runs it from a bare folder (no
// node_modules), as the installed package would.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.mjs';
import { ROOT } from './ensure-built.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-jq-bundle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('jq in the bundle', () => {
  it('runs from bundled chunks with the stripped wasm beside them', async () => {
    const entry = join(tmp, 'entry.ts');
    writeFileSync(
      entry,
      `void (async () => {
         const { compileJq } = await import(${JSON.stringify(join(ROOT, 'src/output/jq.ts'))});
         const p = await compileJq('.id, (.tags | length)');
         process.stdout.write(JSON.stringify([p.run({ id: 'res_1', tags: [1, 2] }), p.runEach([{ id: 'a', tags: [] }, { id: 'b', tags: [0] }])]));
       })();`,
    );
    await bundle({ entryPoints: [entry], outdir: join(tmp, 'dist'), outbase: tmp });
    execFileSync(process.execPath, [join(ROOT, 'scripts/copy-jq-wasm.mjs'), join(tmp, 'dist/chunks')], { cwd: ROOT });
    expect(statSync(join(tmp, 'dist/chunks/jq.wasm')).size).toBeLessThan(1_200_000);
    const out = execFileSync(process.execPath, [join(tmp, 'dist/entry.cjs')], { cwd: tmp, env: { PATH: process.env.PATH ?? '' } }).toString();
    expect(JSON.parse(out)).toEqual([['res_1', '2'], ['a', '0', 'b', '1']]);
  });
});
