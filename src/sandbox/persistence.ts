// `--data FILE`: the sandbox's state as one JSON file, rewritten (debounced) after changes.
// Each write goes to a temporary file in the same folder, is flushed to disk and renamed over
// the old one, so a crash leaves either the previous state or the new one, never half a file.
// The file holds API keys: it is created 0600. Fixture rows are not saved, only how to
// regenerate them (the entropy, their count and anchor time).
import { mkdirSync, readFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { IdempotencySnapshot } from './idempotency.js';
import { isEntropy, type Entropy } from './random.js';
import type { FixtureSpec } from './store/fixtures.js';
import type { LivePost } from './store/post-store.js';

export const STATE_FORMAT = 'socialpub-sandbox-state';
export const STATE_VERSION = 1;

export interface SavedWorkspace {
  name: string;
  tag: number;
  apiKey: string;
  addon: boolean;
  fixtures?: FixtureSpec;
  posts: LivePost[];
  /** Live result rows after the fixtures: [post, platform, flags, time]. */
  rows: [number, number, number, number][];
  media: { index: number; name: string; mimeType: string; sizeBytes: number; createdAt: number; bytes?: string }[];
  idempotency: IdempotencySnapshot[];
}

export interface SavedState {
  format: typeof STATE_FORMAT;
  version: number;
  savedAt: string;
  entropy: Entropy;
  /** How many times the sandbox started on this file (request ids differ per start). */
  boot: number;
  webhookSecret: string;
  workspaces: SavedWorkspace[];
}

export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
}

/** The saved state, or undefined when the file does not exist yet. */
export function loadState(file: string): SavedState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read the sandbox data file ${file}: ${(err as Error).message}`);
  }
  let parsed: Partial<SavedState>;
  try {
    parsed = JSON.parse(text) as Partial<SavedState>;
  } catch {
    throw new StateFileError(`the sandbox data file ${file} is not valid JSON; move it away or pass another --data file`);
  }
  if (parsed.format !== STATE_FORMAT || !isEntropy(parsed.entropy) || !Array.isArray(parsed.workspaces)) {
    throw new StateFileError(`${file} is not a sandbox data file; move it away or pass another --data file`);
  }
  if (parsed.version !== STATE_VERSION) {
    throw new StateFileError(`${file} was written by another version of the sandbox (format ${parsed.version}); pass another --data file`);
  }
  return parsed as SavedState;
}

export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private sequence = 0;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SavedState,
    private readonly debounceMs = 50,
  ) {
    mkdirSync(dirname(file), { recursive: true });
  }

  /** Notes a change; the file is rewritten shortly, once for a burst of changes. */
  schedule(): void {
    this.dirty = true;
    if (this.timer || this.writing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writeNow();
    }, this.debounceMs);
    this.timer.unref();
  }

  private writeNow(): Promise<void> {
    if (this.writing) return this.writing;
    this.dirty = false;
    const data = JSON.stringify(this.snapshot());
    this.writing = this.atomicWrite(data)
      .catch((err: Error) => {
        // A failed write must not take the service down; the next change tries again.
        process.emitWarning(`sandbox: could not save ${this.file}: ${err.message}`);
      })
      .finally(() => {
        this.writing = undefined;
        if (this.dirty) this.schedule();
      });
    return this.writing;
  }

  private async atomicWrite(data: string): Promise<void> {
    const tmp = `${this.file}.${process.pid}.${++this.sequence}.tmp`;
    try {
      const handle = await open(tmp, 'w', 0o600);
      try {
        await handle.writeFile(data, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** Writes pending changes now (on close). */
  async flush(): Promise<void> {
    for (;;) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
      if (this.writing) {
        await this.writing;
        continue;
      }
      if (!this.dirty) return;
      await this.writeNow();
    }
  }
}
