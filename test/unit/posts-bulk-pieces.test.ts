// A bulk file read a piece at a time (posts check --from-file) reads exactly as the whole text
// does, wherever the pieces are cut: inside quotes, between CR and LF, after a quote that may be
// doubled, inside the header, in the middle of a multi-byte character.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvReader, CsvSyntaxError, detectDelimiter, parseCsv } from '../../src/posts/bulk/csv.js';
import { BulkReader, parseBulk, type BulkParseOptions } from '../../src/posts/bulk/rows.js';
import { runCli } from '../helpers/run-cli.js';

/** The text cut at the given places (sorted, within the text). */
function cut(text: string, at: number[]): string[] {
  const points = [...new Set(at.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const p of points) {
    pieces.push(text.slice(from, p));
    from = p;
  }
  pieces.push(text.slice(from));
  return pieces;
}

function readPieces(pieces: string[], delimiter: string) {
  const reader = new CsvReader(delimiter);
  try {
    return [...pieces.flatMap((p) => reader.push(p)), ...reader.end()];
  } catch (e) {
    return e instanceof CsvSyntaxError ? e.message : e;
  }
}

function readWhole(text: string, delimiter: string) {
  try {
    return parseCsv(text, delimiter);
  } catch (e) {
    return e instanceof CsvSyntaxError ? e.message : e;
  }
}

const csvText = fc.array(fc.constantFrom('a', 'b', ',', ';', '"', '""', '\n', '\r\n', '\r', ' ', 'é', '😀'), { maxLength: 60 }).map((parts) => parts.join(''));

describe('CsvReader', () => {
  it('reads any text, cut anywhere, as parseCsv reads it whole (records, lines, and syntax errors)', () => {
    fc.assert(
      fc.property(csvText, fc.array(fc.nat(), { maxLength: 6 }), (text, at) => {
        const delimiter = detectDelimiter(text);
        expect(readPieces(cut(text, at), delimiter)).toEqual(readWhole(text, delimiter));
      }),
      { numRuns: 2000 },
    );
  });

  it('cut inside a quoted field that holds a line break, and between CR and LF', () => {
    const text = 'a,b\r\n1,"x\ny ""q"""\r\n2,z\r\n';
    for (let i = 0; i <= text.length; i++) expect(readPieces([text.slice(0, i), text.slice(i)], ',')).toEqual(parseCsv(text, ','));
    expect(parseCsv(text, ',')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', 'x\ny "q"'] },
      { line: 4, fields: ['2', 'z'] },
    ]);
  });
});

describe('BulkReader', () => {
  const options: BulkParseOptions = { label: 'x', baseDir: tmpdir(), zone: 'UTC', now: Date.parse('2026-11-28T10:00:00Z') };
  const read = (text: string, pieces: string[], label: string) => {
    const reader = new BulkReader({ ...options, label });
    const rows = [...pieces.flatMap((p) => [...reader.push(p)]), ...reader.end()];
    return plain({ rows: reader.fileIssues.length ? [] : rows, fileIssues: reader.fileIssues, format: reader.format });
  };
  // The data of the rows (a draft's labels are functions, made anew by each read).
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
  const files: Array<[string, string]> = [
    ['a.csv', 'at;platforms;text\n2030-01-01T09:00:00Z;bluesky;"one; two"\n2020-01-01 09:00;blusky;x\n\n2030-01-01T09:00:00Z;bluesky\n'],
    ['no-name', 'at,platforms,text\n2030-01-01T09:00:00Z,bluesky,hi\n'],
    ['no-name', '\n\n{"payloads":{"bluesky":{"text":"hi"}},"scheduledAt":"2030-01-01T00:00:00Z"}\n{bad\n\n{"postId":"post_1","scheduledAt":"2030-01-01T00:00:00Z"}'],
    ['b.csv', 'at,platforms,txet\n2030-01-01T09:00:00Z,bluesky,hi\n'],
    ['c.csv', 'at,platforms,text\n2030-01-01T09:00:00Z,bluesky,"never closed\n'],
    ['d.csv', 'at,platforms,text\n'],
    ['e.ndjson', ''],
  ];

  it('gives the rows and file problems parseBulk gives, wherever the text is cut', () => {
    for (const [label, text] of files) {
      const whole = plain(parseBulk(text, { ...options, label }));
      for (let i = 0; i <= text.length; i++) {
        for (const j of [i, Math.min(text.length, i + 1), Math.min(text.length, i + 7)]) {
          expect(read(text, [text.slice(0, i), text.slice(i, j), text.slice(j)], label), `${label} cut at ${i}, ${j}`).toEqual(whole);
        }
      }
    }
    expect(parseBulk(files[0]![1], { ...options, label: 'a.csv' }).rows.map((r) => [r.line, r.issues.length > 0])).toEqual([
      [2, false],
      [3, true],
      [5, true],
    ]);
  });
});

describe('posts check --from-file, read in pieces', () => {
  it('judges a file longer than a piece, a character cut between pieces, and names a bad byte by its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-pieces-'));
    try {
      // Rows past 64 KiB, with an "é" (two bytes) across every 16 KiB boundary: a piece read
      // from the file, whatever its size (a power of two), ends inside a character.
      const header = 'at,platforms,text\n';
      const rows: string[] = [];
      let bytes = Buffer.byteLength(header);
      for (let boundary = 16_384; boundary <= 65_536; boundary += 16_384) {
        while (bytes < boundary - 200) {
          const row = `2030-01-01T09:00:00Z,bluesky,row ${rows.length} café`;
          rows.push(row);
          bytes += Buffer.byteLength(row) + 1;
        }
        const start = `2030-01-01T09:00:00Z,bluesky,`;
        const pad = boundary - 1 - bytes - Buffer.byteLength(start);
        const row = `${start}${'x'.repeat(pad)}é`;
        rows.push(row);
        bytes += Buffer.byteLength(row) + 1;
      }
      const csv = join(dir, 'long.csv');
      writeFileSync(csv, `${header}${rows.join('\n')}\n`);
      expect(Buffer.from(`${header}${rows.join('\n')}\n`).subarray(16_383, 16_385).toString()).toBe('é');
      const r = await runCli(['posts', 'check', '--from-file', csv, '--json']);
      expect(r.code).toBe(0);
      const targets = (JSON.parse(r.stdout) as { targets: Array<{ line: number; checks: Array<{ actual: string }> }> }).targets;
      expect(targets).toHaveLength(rows.length);
      expect(targets.map((t) => t.checks[0]!.actual)).toEqual(rows.map((row) => String([...row.split(',')[2]!].length)));
      const bad = join(dir, 'bad.csv');
      writeFileSync(bad, Buffer.concat([Buffer.from(`at,platforms,text\n${rows.join('\n')}\n2030-01-01T09:00:00Z,bluesky,caf`), Buffer.from([0xe9]), Buffer.from('\n')]));
      const refused = await runCli(['posts', 'check', '--from-file', bad, '--json']);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`--from-file ${bad}: line ${rows.length + 2} is not UTF-8 text`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Ctrl-C stops it between batches: exit 130, nothing on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-pieces-'));
    try {
      const csv = join(dir, 'rows.csv');
      writeFileSync(csv, `at,platforms,text\n${Array.from({ length: 100 }, (_, i) => `2030-01-01T09:00:00Z,bluesky,row ${i}`).join('\n')}\n`);
      const controller = new AbortController();
      controller.abort();
      const r = await runCli(['posts', 'check', '--from-file', csv, '--json'], { signal: controller.signal });
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
