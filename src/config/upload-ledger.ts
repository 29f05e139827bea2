// What this client uploaded, so that the same bytes are not sent to the same service twice: a
// small file beside the profiles (uploads.json, 0600 in the 0700 config folder), keyed by the
// profile, the service's base URL and the file's SHA-256. It holds media ids and URLs, never a
// key. Reuse is the caller's decision: it asks the service (GET /v1/media/{id}) first.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIR_MODE } from './file-modes.js';
import { withSaveLock, writeAtomically } from './save-file.js';

export interface UploadedMedia {
  id: string;
  url: string;
  sizeBytes: number;
}

export interface UploadLedger {
  find(sha256: string): Promise<UploadedMedia | undefined>;
  remember(sha256: string, media: UploadedMedia): Promise<void>;
  forget(sha256: string): Promise<void>;
}

export const UPLOADS_FILE = 'uploads.json';
/** Newest kept; an old entry only costs an upload. */
const KEEP = 2000;

interface Entry extends UploadedMedia {
  at: number;
}

async function readEntries(file: string): Promise<Record<string, Entry>> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { entries?: unknown };
    return typeof parsed.entries === 'object' && parsed.entries !== null ? (parsed.entries as Record<string, Entry>) : {};
  } catch (err) {
    // Missing or damaged: nothing remembered (the worst case is one upload too many).
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError) return {};
    throw err;
  }
}

const valid = (e: unknown): e is Entry => {
  const v = e as Partial<Entry> | undefined;
  return typeof v?.id === 'string' && typeof v.url === 'string' && typeof v.sizeBytes === 'number';
};

/** The ledger of one profile on one service. */
export function uploadLedger(dir: string, profile: string, baseUrl: string, now: () => number = Date.now): UploadLedger {
  const file = join(dir, UPLOADS_FILE);
  const keyOf = (sha256: string) => `${profile}\n${baseUrl.replace(/\/+$/, '')}\n${sha256}`;
  const change = (edit: (entries: Record<string, Entry>) => void) =>
    withSaveLock(`${file}.lock`, async () => {
      const entries = await readEntries(file);
      edit(entries);
      const kept = Object.entries(entries)
        .filter(([, e]) => valid(e))
        .sort(([, a], [, b]) => b.at - a.at)
        .slice(0, KEEP);
      await writeAtomically(file, `${JSON.stringify({ version: 1, entries: Object.fromEntries(kept) })}\n`);
    });
  return {
    async find(sha256) {
      const e = (await readEntries(file))[keyOf(sha256)];
      return valid(e) ? { id: e.id, url: e.url, sizeBytes: e.sizeBytes } : undefined;
    },
    async remember(sha256, media) {
      await mkdir(dir, { recursive: true, mode: DIR_MODE });
      await change((entries) => {
        entries[keyOf(sha256)] = { ...media, at: now() };
      });
    },
    async forget(sha256) {
      if ((await readEntries(file))[keyOf(sha256)] === undefined) return;
      await change((entries) => {
        delete entries[keyOf(sha256)];
      });
    },
  };
}
