// posts check: reading media by its headers only.
//   - a 4 GB sparse MP4 whose moov box sits at the end: bytes read (from /proc/self/io, minus a
//     run without media) must stay under 1 MiB, and the time within 1.2× the same check of a 1 MB MP4
//   - a bulk file of 1,000 rows with 1,000 distinct images against a plain script that does the
//     same job (reads the CSV, parses each time, holds each path to the folder, reads each header,
//     judges the rules and prints the same JSON report): target ≤ 1.5×; the header-only script
//     is shown for reference
//   - 20,000 rows: peak memory (max RSS) of the report in JSON and in TSV, target ≤ 100 MB each
// Run: npm run build && node test/bench/check.bench.mjs  (or `npm run bench check`)
import { closeSync, existsSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { BIN, benchEnv, compare, measure, median, report } from './lib.mjs';

const node = process.execPath;
const GB = 1024 ** 3;

// Minimal ISO boxes (the test helpers build richer ones; the bench runs without a TypeScript loader).
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const box = (type, ...parts) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(body.length + 8), Buffer.from(type, 'latin1'), body]);
};
function moov(seconds, width, height) {
  const mvhd = box('mvhd', Buffer.alloc(4), u32(0), u32(0), u32(1000), u32(seconds * 1000), Buffer.alloc(80));
  const matrix = Buffer.concat([u32(0x10000), u32(0), u32(0), u32(0), u32(0x10000), u32(0), u32(0), u32(0), u32(0x40000000)]);
  const tkhd = box('tkhd', Buffer.from([0, 0, 0, 3]), Buffer.alloc(20), Buffer.alloc(16), matrix, u32(width * 0x10000), u32(height * 0x10000));
  const hdlr = box('hdlr', Buffer.alloc(8), Buffer.from('vide'), Buffer.alloc(12), Buffer.from('V\0'));
  const stsd = box('stsd', Buffer.alloc(4), u32(1), box('avc1', Buffer.alloc(78)));
  return box('moov', mvhd, box('trak', tkhd, box('mdia', hdlr, box('minf', box('stbl', stsd)))));
}
/** ftyp, an mdat of `mdatBytes` (a hole where the file is sparse), then moov. */
function writeVideo(path, mdatBytes, seconds) {
  const ftyp = box('ftyp', Buffer.from('isom'), u32(0x200), Buffer.from('isomavc1'));
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(mdatBytes + 16));
  const head = Buffer.concat([ftyp, u32(1), Buffer.from('mdat'), size]);
  const tail = moov(seconds, 1280, 720);
  const fd = openSync(path, 'w');
  writeSync(fd, head, 0, head.length, 0);
  ftruncateSync(fd, head.length + mdatBytes);
  writeSync(fd, tail, 0, tail.length, head.length + mdatBytes);
  closeSync(fd);
}
function png(width, height) {
  const ihdr = Buffer.concat([u32(13), Buffer.from('IHDR'), u32(width), u32(height), Buffer.from([8, 2, 0, 0, 0]), u32(0)]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(2048)]);
}

const SAME_JOB_SCRIPT = `import { closeSync, fstatSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
const file = process.argv[2];
const folder = realpathSync.native(dirname(file));
const head = Buffer.alloc(4096);
const segmenter = new Intl.Segmenter();
const TABLE = 'platform table (src/wire/platforms.ts), from each platform\\'s publishing API';
const TEXT = 'Bluesky lexicon app.bsky.feed.post: text maxGraphemes 300 (grapheme clusters, Intl.Segmenter) and maxLength 3000 (lexicon lengths are UTF-8 bytes)';
const MIX = 'Bluesky lexicons app.bsky.embed.images (at most 4) and app.bsky.embed.video: a post embeds images or one video';
const lines = readFileSync(file, 'utf8').split('\\n');
const targets = [];
let accepted = true;
for (let i = 1; i < lines.length; i++) {
  if (!lines[i]) continue;
  const [at, platform, text, media] = lines[i].split(',');
  if (Number.isNaN(Date.parse(at))) throw new Error('bad time');
  const real = realpathSync.native(resolve(folder, media));
  if (!real.startsWith(folder + sep)) throw new Error('outside');
  const fd = openSync(real, 'r');
  const size = fstatSync(fd).size;
  readSync(fd, head, 0, 4096, 0);
  closeSync(fd);
  const png = head.readUInt32BE(0) === 0x89504e47;
  const width = head.readUInt32BE(16);
  const length = [...segmenter.segment(text)].length;
  const item = 'line ' + (i + 1) + ': media ' + media;
  const checks = [
    { rule: 'text.length', verdict: length <= 300 ? 'pass' : 'fail', actual: String(length), limit: '≤ 300', source: TEXT },
    { rule: 'media.count', verdict: 'pass', actual: '1', limit: '≤ 4', source: TABLE },
    { rule: 'media.mix', verdict: 'pass', actual: '1 image', limit: 'up to 4 images or one video', source: MIX },
    { rule: 'media.type', verdict: png && width > 0 ? 'pass' : 'fail', item, actual: 'image/png', limit: 'image/jpeg, image/png, image/webp, video/mp4', source: TABLE },
    { rule: 'media.size', verdict: size <= 1000000 ? 'pass' : 'fail', item, actual: Math.round(size / 1024) + ' KB', limit: '≤ 977 KB', source: TABLE },
  ];
  const ok = checks.every((c) => c.verdict === 'pass');
  accepted &&= ok;
  targets.push({ line: i + 1, platform, name: 'Bluesky', accepted: ok, checks });
}
process.stdout.write(JSON.stringify({ accepted, problems: [], targets }, null, 2) + '\\n');
`;

/** CPU seconds (user + sys) of one run, from /usr/bin/time: steadier than wall time on a shared machine. */
function cpuMs(dir, args) {
  const out = join(dir, 'cpu.txt');
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', out, node, ...args], { env: benchEnv({ NO_COLOR: '1' }), stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  const [user, sys] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return (user + sys) * 1000;
}

/**
 * CPU ms (user + sys, every thread) a process used up to its exit, as it counts it itself: finer
 * than /usr/bin/time's 10 ms steps. Stdout is piped and drained, as compare() runs it.
 */
function selfCpuMs(dir, args) {
  const probe = join(dir, 'cpu-probe.cjs');
  if (!existsSync(probe)) writeFileSync(probe, "process.on('exit', () => { const c = process.cpuUsage(); require('fs').writeFileSync(process.env.CPU_OUT, String((c.user + c.system) / 1000)); });\n");
  const out = join(dir, 'cpu-self.txt');
  const r = spawnSync(node, ['--require', probe, ...args], { env: benchEnv({ NO_COLOR: '1', CPU_OUT: out }), stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(readFileSync(out, 'utf8'));
}

/** Bytes the process read through read(2) and friends, from /proc/self/io at exit. */
async function bytesRead(dir, args) {
  const probe = join(dir, 'io-probe.cjs');
  writeFileSync(probe, "process.on('exit', () => require('fs').writeFileSync(process.env.IO_OUT, require('fs').readFileSync('/proc/self/io', 'utf8')));\n");
  const out = join(dir, 'io.txt');
  // Without the compile cache: its files are read too, and differ between the two runs.
  const r = await measure(node, ['--require', probe, BIN, ...args], { env: benchEnv({ IO_OUT: out, NO_COLOR: '1', NODE_DISABLE_COMPILE_CACHE: '1' }) });
  const rchar = Number(/rchar: (\d+)/.exec(readFileSync(out, 'utf8'))?.[1]);
  return { code: r.code, rchar };
}

/** Peak resident memory of one run in MB, from /usr/bin/time's %M (KB); stdout to /dev/null. */
function maxRssMb(dir, args) {
  const out = join(dir, 'rss.txt');
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', out, node, ...args], { env: benchEnv({ NO_COLOR: '1' }), stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(readFileSync(out, 'utf8').trim().split('\n').pop()) / 1024;
}

export async function run({ runs = 11, bulkRows = 1000, memoryRows = 20_000 } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-bench-check-'));
  try {
    const big = join(tmp, 'big.mp4');
    const small = join(tmp, 'small.mp4');
    writeVideo(big, 4 * GB, 60);
    writeVideo(small, 1024 * 1024, 60);
    const check = (media) => ['posts', 'check', '--platform', 'youtube', '--title', 'Bench', '--text', 'bench', ...(media ? ['--media', media] : []), '--json'];
    if (existsSync('/proc/self/io')) {
      const none = await bytesRead(tmp, check());
      const withBig = await bytesRead(tmp, check(big));
      if (withBig.code !== 0) throw new Error(`posts check on the 4 GB file exited ${withBig.code}`);
      const read = withBig.rchar - none.rchar;
      console.log(`posts check, 4 GB MP4 with moov at the end: read ${(read / 1024).toFixed(1)} KiB of it (rchar ${withBig.rchar} - ${none.rchar} without media)${read <= 1024 * 1024 ? '  ✓ ≤ 1 MiB' : '  ✗ target ≤ 1 MiB'}`);
    }
    report(
      await compare({
        name: 'posts check, 4 GB MP4 (moov at the end) vs the same on a 1 MB MP4',
        subject: { cmd: node, args: [BIN, ...check(big)] },
        baseline: { cmd: node, args: [BIN, ...check(small)] },
        runs,
      }),
      1.2,
    );

    const images = join(tmp, 'images');
    mkdirSync(images);
    const lines = ['at,platforms,text,media'];
    for (let i = 0; i < bulkRows; i++) {
      writeFileSync(join(images, `img${i}.png`), png(1000 + i, 800));
      lines.push(`2030-01-01T09:00:00Z,bluesky,row ${i},images/img${i}.png`);
    }
    const csv = join(tmp, 'bulk.csv');
    writeFileSync(csv, lines.join('\n') + '\n');
    // The plain script: open each image, read its first 4 KiB, take width and height from IHDR.
    const plain = join(tmp, 'plain.mjs');
    writeFileSync(
      plain,
      `import { openSync, readSync, closeSync } from 'node:fs';\nconst buf = Buffer.alloc(4096);\nlet sum = 0;\nfor (let i = 0; i < ${bulkRows}; i++) {\n  const fd = openSync(${JSON.stringify(images)} + '/img' + i + '.png', 'r');\n  readSync(fd, buf, 0, 4096, 0);\n  closeSync(fd);\n  sum += buf.readUInt32BE(16) * buf.readUInt32BE(20);\n}\nconsole.log(sum);\n`,
    );
    const sameJob = join(tmp, 'same-job.mjs');
    writeFileSync(sameJob, SAME_JOB_SCRIPT);
    report(
      await compare({
        name: `posts check --from-file (${bulkRows} rows, ${bulkRows} images) vs the same job done plainly (CSV, times, folder check, headers, rules, the same JSON report)`,
        subject: { cmd: node, args: [BIN, 'posts', 'check', '--from-file', csv, '--json'], options: { env: benchEnv({ NO_COLOR: '1' }) } },
        baseline: { cmd: node, args: [sameJob, csv] },
        runs,
      }),
      1.5,
    );
    {
      // The same in CPU time, round by round: on a machine others share, wall time moves with
      // their load, the CPU a process spends much less.
      const ratios = [];
      const [subject, baseline] = [[], []];
      for (let i = 0; i < runs; i++) {
        baseline.push(selfCpuMs(tmp, [sameJob, csv]));
        subject.push(selfCpuMs(tmp, [BIN, 'posts', 'check', '--from-file', csv, '--json']));
        ratios.push(subject[i] / baseline[i]);
      }
      console.log(`  the same in CPU time (user + sys, as each process counts it): ${median(subject).toFixed(0)} ms vs ${median(baseline).toFixed(0)} ms, ${median(ratios).toFixed(2)}× (median of ${runs} paired rounds)`);
    }
    report(
      await compare({
        name: `  for reference: vs a plain script reading the ${bulkRows} headers only`,
        subject: { cmd: node, args: [BIN, 'posts', 'check', '--from-file', csv, '--json'], options: { env: benchEnv({ NO_COLOR: '1' }) } },
        baseline: { cmd: node, args: [plain] },
        runs,
      }),
    );
    if (existsSync('/usr/bin/time')) {
      const subject = [];
      const baseline = [];
      for (let i = 0; i < runs; i++) {
        baseline.push(cpuMs(tmp, [plain]));
        subject.push(cpuMs(tmp, [BIN, 'posts', 'check', '--from-file', csv, '--json']));
      }
      const [s, b] = [median(subject), median(baseline)];
      console.log(`  the same in CPU time (user + sys): ${s.toFixed(0)} ms vs ${b.toFixed(0)} ms = ${(s / b).toFixed(2)}× (median of ${runs}; /usr/bin/time counts in 10 ms steps)`);

      // Memory: 20,000 rows (each its own image), the report streamed to /dev/null in JSON and TSV.
      const many = join(tmp, 'many');
      mkdirSync(many);
      const manyLines = ['at,platforms,text,media'];
      for (let i = 0; i < memoryRows; i++) {
        writeFileSync(join(many, `img${i}.png`), png(1000 + (i % 500), 800));
        manyLines.push(`2030-01-01T09:00:00Z,bluesky,row ${i},many/img${i}.png`);
      }
      const manyCsv = join(tmp, 'many.csv');
      writeFileSync(manyCsv, manyLines.join('\n') + '\n');
      for (const format of ['--json', '-o tsv']) {
        const mb = maxRssMb(tmp, [BIN, 'posts', 'check', '--from-file', manyCsv, ...format.split(' ')]);
        console.log(`posts check --from-file, ${memoryRows} rows, ${format}: peak memory ${mb.toFixed(0)} MB${mb <= 100 ? '  ✓ ≤ 100 MB' : '  ✗ target ≤ 100 MB'}`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
