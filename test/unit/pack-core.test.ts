// The core pack (scripts/pack-core.mjs): chunks reached statically from the roots move into
// chunks/core.cjs and keep require()'s behaviour (one instance each, run on first use, their own
// __dirname); lazy chunks stay files, share the packed instances, and are loaded through core.cjs
// (by require(), or by the loader core.cjs is given).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packCore } from '../../scripts/pack-core.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-pack-core-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lazy = (spec: string) => `Promise.resolve().then(()=>__toESM(require("${spec}")))`;
const files = new Map<string, string>([
  [
    'cli/entry.cjs',
    `"use strict";const __toESM=(m)=>m;const a=require("../chunks/a.cjs");
     exports.run=async()=>{const l=await ${lazy('../chunks/lazy.cjs')};return {a:a.describe(),lazy:l.describe(),sameB:l.b===a.b,runs:require("../chunks/b.cjs").runs};};`,
  ],
  ['chunks/a.cjs', `"use strict";const b=require("./b.cjs");exports.b=b;exports.describe=()=>({dir:__dirname.endsWith("chunks"),file:__filename.endsWith("a.cjs"),thisIsExports:topThis===exports});var topThis=this;`],
  ['chunks/b.cjs', `"use strict";module.exports={runs:(globalThis.__bRuns=(globalThis.__bRuns||0)+1)};`],
  ['chunks/lazy.cjs', `"use strict";const b=require("./b.cjs");exports.b=b;exports.describe=()=>"lazy, "+require("./unpacked.cjs").name;`],
  ['chunks/unpacked.cjs', `"use strict";exports.name="unpacked";`],
]);

function writeOut(dir: string, out: Map<string, string>): void {
  for (const [rel, code] of out) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), code);
  }
}

describe('packCore', () => {
  it('packs the static closure of the roots, leaves lazy chunks as files, and rewrites their requires', () => {
    const { files: out, packed } = packCore(files, ['cli/entry.cjs']);
    expect(packed.sort()).toEqual(['chunks/a.cjs', 'chunks/b.cjs']);
    expect([...out.keys()].sort()).toEqual(['chunks/core.cjs', 'chunks/lazy.cjs', 'chunks/unpacked.cjs', 'cli/entry.cjs']);
    expect(out.get('cli/entry.cjs')).toContain('require("../chunks/core.cjs")("a.cjs")');
    expect(out.get('chunks/lazy.cjs')).toContain('require("./core.cjs")("b.cjs")');
    expect(out.get('chunks/lazy.cjs')).toContain('require("./core.cjs")("unpacked.cjs")');
    expect(out.get('cli/entry.cjs')).toContain('require("../chunks/core.cjs")("lazy.cjs")');
  });

  it('loads the chunks that stay files with the loader it is given', () => {
    const dir = join(tmp, 'loader');
    writeOut(dir, packCore(files, ['cli/entry.cjs']).files);
    const script = `const core = require(${JSON.stringify(join(dir, 'chunks/core.cjs'))});
      const seen = [];
      core.loadWith((file) => { seen.push(require('node:path').basename(file)); return require(file); });
      require(${JSON.stringify(join(dir, 'cli/entry.cjs'))}).run().then((r) => process.stdout.write(JSON.stringify({ r, seen })));`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script]).toString());
    expect(out.r.lazy).toBe('lazy, unpacked');
    expect(out.seen).toEqual(['lazy.cjs', 'unpacked.cjs']);
  });

  it('runs as the unpacked files did: one instance per chunk, its own __dirname, this === exports', () => {
    const dir = join(tmp, 'run');
    writeOut(dir, packCore(files, ['cli/entry.cjs']).files);
    const out = execFileSync(process.execPath, ['-e', `require(${JSON.stringify(join(dir, 'cli/entry.cjs'))}).run().then((r) => process.stdout.write(JSON.stringify(r)))`]).toString();
    expect(JSON.parse(out)).toEqual({ a: { dir: true, file: true, thisIsExports: true }, lazy: 'lazy, unpacked', sameB: true, runs: 1 });
  });

  it('refuses a require of a file that is not in the output', () => {
    const broken = new Map(files).set('chunks/a.cjs', `"use strict";require("./gone.cjs");`);
    expect(() => packCore(broken, ['cli/entry.cjs'])).toThrow(/requires \.\/gone\.cjs/);
  });
});
