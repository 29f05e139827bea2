// `--data FILE`: the snapshot half of the sandbox's durable state (the other half is the
// write-ahead log, durable/journal.ts). The snapshot is written only at start and at a clean
// stop (src/files/atomic-write.ts), to a temporary file in the same folder that is flushed to disk and renamed over the
// old one, so a crash leaves either the previous snapshot or the new one, never half a file;
// temporary files a crash left behind are removed at the next start. The file holds API keys:
// it is created 0600 (its folder 0700 when we create it). Fixture rows are not saved, only how
// to regenerate them (the entropy, their count and anchor time). Symbolic links are never
// followed: a link planted where the snapshot or the log goes is refused, not written through.
import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IdempotencySnapshot } from './idempotency.js';
import { isEntropy, type Entropy } from './random.js';
import type { FixtureSpec } from './store/fixtures.js';
import type { LivePost } from './store/post-store.js';
import type { PendingDelivery } from './webhooks.js';

// The atomic write is shared with the profiles file; the durable code imports it from here.
export { removeStaleTemps, syncFolder, writeAtomically } from '../files/atomic-write.js';

export const STATE_FORMAT = 'socialpub-sandbox-state';
/** 2 added the log generation, rate windows and pending webhook deliveries; 1 still loads. */
export const STATE_VERSION = 2;

export interface SavedMedia {
  index: number;
  name: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: number;
  bytes?: string;
}

export interface SavedWorkspace {
  name: string;
  tag: number;
  apiKey: string;
  addon: boolean;
  fixtures?: FixtureSpec;
  posts: LivePost[];
  /** Live result rows after the fixtures: [post, platform, flags, time]. */
  rows: [number, number, number, number][];
  media: SavedMedia[];
  idempotency: IdempotencySnapshot[];
  /** Times of the requests still inside each rolling window. */
  windows?: { read: number[]; write: number[] };
}

export interface SavedState {
  format: typeof STATE_FORMAT;
  version: number;
  savedAt: string;
  entropy: Entropy;
  /** How many times the sandbox started on this file (request ids differ per start). */
  boot: number;
  /** The log generation this snapshot goes with: a log of another generation is already in it. */
  journal?: number;
  webhookSecret: string;
  workspaces: SavedWorkspace[];
  /** Webhook deliveries not yet answered 2xx (nor given up). */
  webhooks?: PendingDelivery[];
}

export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
}

export function linkRefused(file: string): StateFileError {
  return new StateFileError(
    `${file} is a symbolic link; the sandbox never follows links for its data (it would overwrite what the link points to): replace the link with the file itself, or pass the real path as --data`,
  );
}

/** Refuses `file` when it is a symbolic link (a missing file is fine). */
export function refuseLink(file: string): void {
  let link: boolean;
  try {
    link = lstatSync(file).isSymbolicLink();
  } catch {
    return;
  }
  if (link) throw linkRefused(file);
}

/** The file's text (undefined when there is none), read without following a symbolic link. */
export function readPrivateFile(file: string, what: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw linkRefused(file);
    throw new StateFileError(`cannot read ${what} ${file}: ${(err as Error).message}`);
  }
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The saved state, or undefined when the file does not exist yet. */
export function loadState(file: string): SavedState | undefined {
  const text = readPrivateFile(file, 'the sandbox data file');
  if (text === undefined) return undefined;
  let parsed: Partial<SavedState>;
  try {
    parsed = JSON.parse(text) as Partial<SavedState>;
  } catch {
    throw new StateFileError(`the sandbox data file ${file} is not valid JSON; move it away or pass another --data file`);
  }
  if (parsed.format !== STATE_FORMAT || !isEntropy(parsed.entropy) || !Array.isArray(parsed.workspaces)) {
    throw new StateFileError(`${file} is not a sandbox data file; move it away or pass another --data file`);
  }
  if (parsed.version !== STATE_VERSION && parsed.version !== 1) {
    throw new StateFileError(`${file} was written by another version of the sandbox (format ${parsed.version}); pass another --data file`);
  }
  return parsed as SavedState;
}

/** Creates the data file's folder (0700 when it is new). */
export function prepareFolder(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
}
