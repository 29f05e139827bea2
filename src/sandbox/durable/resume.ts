// Start-up with `--data`: the state rebuilt from the snapshot and its log, compacted into a
// new snapshot before the first request, and only then the publisher and the webhook retries
// set going, so that everything they do is logged.
import type { SandboxCore } from '../core.js';
import type { PendingDelivery } from '../webhooks.js';
import { DataFile, type OpenedData } from './data-file.js';
import { replay, restoreSnapshot } from './replay.js';

export async function resumeDurable(core: SandboxCore, file: string, opened: OpenedData, compactBytes?: number): Promise<DataFile> {
  const { saved, changes } = opened;
  const deliveries = new Map<string, PendingDelivery>();
  const target = { workspaces: core.workspaces, deliveries };
  if (saved) restoreSnapshot(target, saved);
  replay(target, changes);
  // The keys, the entropy and this start's number (the request-id counter) are on disk before
  // any id is handed out.
  const first = { ...core.snapshot(0), webhooks: [...deliveries.values()] };
  const data = await DataFile.start(file, saved?.journal ?? 0, first, { snapshot: (g) => core.snapshot(g), switchJournal: (j) => core.attachJournal(j) }, compactBytes);
  for (const ws of core.workspaces) for (const post of ws.posts.livePosts()) core.publisher.track(ws, post);
  core.webhooks.resume([...deliveries.values()]);
  return data;
}
