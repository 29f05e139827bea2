import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { captureStream } from '../helpers/run-cli.js';
import { createOutput } from '../../src/output/output.js';
import { csvWriter, jsonArrayWriter, lineWriter, ndjsonWriter, tsvCell, tsvWriter, type ListWriter } from '../../src/output/writers.js';
import { displayWidth } from '../../src/output/width.js';
import { createSpinner } from '../../src/output/progress.js';
import { colorEnabled } from '../../src/output/colors.js';
import { formatRelative } from '../../src/output/time.js';
import { readTsv, readTsvCell } from '../helpers/tsv-read.js';
import fc from 'fast-check';

const columns = [
  { header: 'id', value: (r: { id: string; text: string }) => r.id },
  { header: 'text', value: (r: { id: string; text: string }) => r.text },
];
const rows = [
  { id: 'a', text: 'one\ttab' },
  { id: 'bb', text: 'two\nlines' },
];

describe('output formats', () => {
  it('json: a valid array, also when empty', async () => {
    for (const input of [rows, []]) {
      const out = captureStream();
      await createOutput({ stdout: out, stderr: captureStream(), format: 'json' }).list(input, { kind: 'table', columns });
      expect(JSON.parse(out.text())).toEqual(input);
    }
  });

  it('ndjson: one row per line, unchanged', async () => {
    const out = captureStream();
    await createOutput({ stdout: out, stderr: captureStream(), format: 'ndjson' }).list(rows, { kind: 'table', columns });
    expect(out.text().trim().split('\n').map((l) => JSON.parse(l))).toEqual(rows);
  });

  it('tsv: one line per row with tabs and newlines escaped, no header', async () => {
    const out = captureStream();
    await createOutput({ stdout: out, stderr: captureStream(), format: 'tsv' }).list(rows, { kind: 'table', columns });
    expect(out.text()).toBe('a\tone\\ttab\nbb\ttwo\\nlines\n');
    expect(tsvCell('back\\slash')).toBe('back\\\\slash');
    expect(tsvCell('plain cell')).toBe('plain cell');
    expect(tsvCell('crlf\r\nand\ttab')).toBe('crlf\\nand\\ttab');
  });

  it('tsv: a control character is written as one visible escape (\\u0007, not \\\\u0007), and reads back exact', async () => {
    const out = captureStream();
    const evil = [{ id: 'p\u0007', text: 'bell\u0007 esc\u001b[2J back\\slash \\u0007 lone\rcr rlo\u202e c1\u009b ::x' }];
    await createOutput({ stdout: out, stderr: captureStream(), format: 'tsv' }).list(evil, { kind: 'table', columns });
    expect(out.text()).toContain('bell\\u0007 esc\\u001b[2J');
    expect(out.text()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(readTsv(out.text())).toEqual([[evil[0]!.id, evil[0]!.text]]);
  });

  it('tsv: any text reads back exact (CRLF as LF), on one line, with no control character a terminal acts on', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\\', '\t', '\n', '\r', '\u0007', '\u001b', '\u009b', '\u202e', ':', 'u', '0'), fc.string({ unit: 'binary', maxLength: 1 })), maxLength: 30 }), (s) => {
        const cell = tsvCell(s);
        expect(cell).not.toMatch(/[\t\n\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
        expect(readTsvCell(cell)).toBe(s.replace(/\r\n/g, '\n'));
      }),
      { numRuns: 500 },
    );
  });

  it('table: a header and aligned columns', async () => {
    const out = captureStream(true, 80);
    await createOutput({ stdout: out, stderr: captureStream(true), format: 'table' }).list(rows, { kind: 'table', columns });
    const lines = out.text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TEXT$/);
    expect(lines[1]!.indexOf('one')).toBe(lines[2]!.indexOf('two'));
  });

  it('waits for the stream to drain (back-pressure) instead of buffering without bound', async () => {
    let drains = 0;
    const sink = {
      write: () => false,
      once: (_e: 'drain', fn: () => void) => {
        drains++;
        setImmediate(fn);
      },
    };
    const w = jsonArrayWriter(sink);
    await w.write({ a: 1 });
    await w.write({ a: 2 });
    await w.end();
    expect(drains).toBe(3);
  });

  it('a sink that refuses until drain: each line/TSV/CSV row is written at once, and its promise waits for the drain', async () => {
    const rowColumns = [{ header: 'n', value: (r: { n: number }) => String(r.n) }];
    const makers: Array<(sink: RefusingSink) => ListWriter<{ n: number }>> = [
      (sink) => lineWriter(sink, (r) => `line ${r.n}`),
      (sink) => ndjsonWriter(sink),
      (sink) => tsvWriter(sink, rowColumns),
      (sink) => csvWriter(sink, rowColumns),
    ];
    expect(makers).toHaveLength(4);
    for (const make of makers) {
      const sink = refusingSink();
      const w = make(sink);
      let settled = false;
      const first = w.write({ n: 1 }).then(() => (settled = true));
      expect(sink.chunks).toHaveLength(1);
      await new Promise(setImmediate);
      expect(settled).toBe(false);
      sink.drain();
      await first;
      expect(settled).toBe(true);
      const second = w.write({ n: 2 });
      expect(sink.chunks).toHaveLength(2);
      expect(sink.chunks[1]).toContain('2');
      expect(sink.chunks[0]).not.toContain('2');
      sink.drain();
      await second;
    }
  });

  it('back-pressure through output: rows stay in order and none is written while a drain is awaited', async () => {
    let waiting = false;
    let writesWhileWaiting = 0;
    let drains = 0;
    const chunks: string[] = [];
    // A stream whose buffer is always full: every write asks for a 'drain', sent a turn later.
    const stdout = Object.assign(new EventEmitter(), {
      isTTY: false,
      write(chunk: string) {
        if (waiting) writesWhileWaiting++;
        chunks.push(chunk);
        waiting = true;
        setImmediate(() => {
          waiting = false;
          drains++;
          stdout.emit('drain');
        });
        return false;
      },
    });
    const big = 'x'.repeat(10_000);
    const input = Array.from({ length: 200 }, (_, i) => ({ id: String(i), text: big }));
    const n = await createOutput({ stdout, stderr: captureStream(), format: 'tsv' }).list(input, { kind: 'table', columns });
    expect(n).toBe(200);
    expect(drains).toBeGreaterThan(10);
    expect(writesWhileWaiting).toBe(0);
    expect(chunks.join('').trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(input.map((r) => r.id));
  });

  it('counts wide characters as two cells', () => {
    expect(displayWidth('ab')).toBe(2);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('\u001b[31mred\u001b[39m')).toBe(3);
  });
});

describe('terminal-only decorations', () => {
  it('no spinner when not a terminal, nor on a terminal that reports no width', async () => {
    for (const [enabled, cols] of [[false, 80], [true, 0]] as const) {
      const err = captureStream(true, cols);
      const s = await createSpinner(err, 'working', enabled);
      s.text('still working');
      s.succeed('done');
      expect(err.text()).toBe('');
    }
  });

  it('a spinner stopped for lines of their own (an outage) comes back with resume()', async () => {
    // A terminal as ora draws on it (it moves the cursor and clears the line between frames).
    const err = Object.assign(captureStream(true, 80), { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const s = await createSpinner(err, 'waiting', true);
    s.stop();
    const before = err.text().length;
    s.text('still waiting');
    s.resume();
    expect(err.text().slice(before)).toContain('still waiting');
    s.succeed('done');
    expect(err.text()).toContain('done');
  });

  it('colour follows NO_COLOR, FORCE_COLOR, --no-color and the terminal', () => {
    expect(colorEnabled({ flag: true, env: {}, isTTY: true })).toBe(true);
    expect(colorEnabled({ flag: true, env: {}, isTTY: false })).toBe(false);
    expect(colorEnabled({ flag: true, env: { NO_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colorEnabled({ flag: false, env: { FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colorEnabled({ flag: true, env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(colorEnabled({ flag: true, env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
  });

  it('relative times read naturally', () => {
    const now = Date.parse('2026-12-01T09:00:00Z');
    expect(formatRelative('2026-12-01T09:30:00Z', now)).toBe('in 30 minutes');
    expect(formatRelative('2026-12-01T06:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelative('2026-12-04T09:00:00Z', now)).toBe('in 3 days');
    expect(formatRelative(null, now)).toBe('');
  });
});

interface RefusingSink {
  chunks: string[];
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): void;
  /** The stream has room again: the waiting listener is called. */
  drain(): void;
}

/** Takes every chunk but answers "full" each time, until drain() is called. */
function refusingSink(): RefusingSink {
  const chunks: string[] = [];
  let listener: (() => void) | undefined;
  return {
    chunks,
    write: (chunk) => (chunks.push(chunk), false),
    once: (_event, fn) => void (listener = fn),
    drain() {
      const fn = listener;
      listener = undefined;
      fn?.();
    },
  };
}

describe('a footer on a narrow terminal', () => {
  it('keeps a command it ends in whole, on a line of its own, and wraps the rest rather than cutting it', () => {
    const stdout = captureStream(true, 40);
    const stderr = captureStream(true, 40);
    const output = createOutput({ stdout, stderr, format: 'table' });
    output.footer('its outcome, once it goes out: socialpub posts view post_1MmTzG3h03Dj');
    output.footer('6 scheduled · 2026-11-24 23:48 UTC → 2026-12-01 23:48 UTC');
    const lines = stderr.text().trimEnd().split('\n');
    expect(lines).toEqual([
      'its outcome, once it goes out:',
      '  socialpub posts view post_1MmTzG3h03Dj',
      '6 scheduled',
      '2026-11-24 23:48 UTC → 2026-12-01 23:48',
      '  UTC',
    ]);
  });
});
