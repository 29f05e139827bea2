// A log view (listen, results list --follow) prints each event as it comes, through one writer
// for the whole stream: nothing waits for a batch to fill or for the stream to end.
import { describe, expect, it } from 'vitest';
import { createOutput, type LogView } from '../../src/output/output.js';
import { compileJq } from '../../src/output/jq.js';
import { plainColors } from '../../src/output/colors.js';
import { captureStream } from '../helpers/run-cli.js';

interface Event {
  id: string;
  platform: string;
}

const view: LogView<Event> = {
  kind: 'log',
  columns: [
    { header: 'id', value: (e) => e.id },
    { header: 'platform', value: (e) => e.platform },
  ],
  id: (e) => e.id,
  line: (e) => `${e.id} ${e.platform}`,
  json: (e) => e,
};

/** Lets the output's batching flush, as the pause between two events does. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function eachEventAtOnce(options: Partial<Parameters<typeof createOutput>[0]>, tty = false): Promise<string[]> {
  const stdout = captureStream(tty, 80);
  const out = createOutput({ stdout, stderr: captureStream(tty, 80), format: 'ndjson', colors: plainColors, ...options });
  const writer = out.listWriter(view);
  const seen: string[] = [];
  for (const [i, platform] of ['bluesky', 'threads', 'linkedin'].entries()) {
    await writer.write({ id: `res_${i}`, platform });
    await turn();
    seen.push(stdout.text());
  }
  await writer.abort();
  return seen;
}

describe('log views', () => {
  it('--jq runs on each event as it comes, not on a batch of them', async () => {
    const seen = await eachEventAtOnce({ jq: await compileJq('.platform') });
    expect(seen).toEqual(['bluesky\n', 'bluesky\nthreads\n', 'bluesky\nthreads\nlinkedin\n']);
  });

  it('a table with --fields on a terminal: the header once, then a line per event as it comes', async () => {
    const seen = await eachEventAtOnce({ format: 'table', fields: ['platform'] }, true);
    expect(seen[0]).toBe('PLATFORM\nbluesky\n');
    expect(seen[2]).toBe('PLATFORM\nbluesky\nthreads\nlinkedin\n');
  });

  it('CSV: one header row for the stream; -q: the ids alone', async () => {
    const csv = await eachEventAtOnce({ format: 'csv' });
    expect(csv[2]).toBe('id,platform\r\nres_0,bluesky\r\nres_1,threads\r\nres_2,linkedin\r\n');
    const quiet = await eachEventAtOnce({ format: 'tsv', quiet: true });
    expect(quiet[2]).toBe('res_0\nres_1\nres_2\n');
  });
});
