// Puts jq's WebAssembly next to the bundled chunks, where jq-web looks for it (its directory).
// The published jq.wasm carries 1.9 MB of DWARF debug sections; custom sections (id 0) are not
// code, so they are left out: 2.8 MB becomes about 0.9 MB and the package stays small.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const source = join(dirname(require.resolve('jq-web')), 'jq.wasm');
const outDir = process.argv[2] ?? 'dist/chunks';

export function withoutCustomSections(wasm) {
  const keep = [wasm.subarray(0, 8)];
  let p = 8;
  while (p < wasm.length) {
    const start = p;
    const id = wasm[p++];
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = wasm[p++];
      size += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) break;
    }
    p += size;
    if (id !== 0) keep.push(wasm.subarray(start, p));
  }
  return Buffer.concat(keep);
}

const stripped = withoutCustomSections(readFileSync(source));
if (!WebAssembly.validate(stripped)) throw new Error(`copy-jq-wasm: ${source} did not survive stripping; copy it whole instead`);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'jq.wasm'), stripped);
