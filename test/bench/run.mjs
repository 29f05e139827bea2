// `npm run bench`: runs every test/bench/*.bench.mjs in turn (or those named on the command line).
import { readdirSync } from 'node:fs';

const dir = new URL('./', import.meta.url);
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();
console.log(`node ${process.version} · ${files.length} benchmark file(s) · NODE_EXTRA_CA_CERTS unset for measured processes\n`);
for (const f of files) {
  const mod = await import(new URL(f, dir));
  await mod.run();
  console.log('');
}
