// Everything the dashboard reads from the sandbox, and the few things it changes, in one narrow
// module: the pages never touch the workspace or the core themselves, so when the storage
// underneath changes, only this file follows it.
import { isPlatform, POST_STATUSES, type PostStatus } from '../../wire/platforms.js';
import type { SandboxCore } from '../core.js';
import type { RequestLogEntry } from '../types.js';
import type { DeliveryLogEntry } from '../webhooks.js';
import type { PostJson, ResultJson, Workspace } from '../workspace.js';
import type { AccountAction, AccountJson } from '../accounts.js';
import { spStatusOf } from '../syncpostly/post-dto.js';

export type { PostJson, ResultJson, RequestLogEntry, DeliveryLogEntry };

export function workspaceNames(core: SandboxCore): string[] {
  return core.workspaces.map((w) => w.name);
}

export function workspace(core: SandboxCore, name: string | null): Workspace {
  return core.workspaces.find((w) => w.name === name) ?? core.workspaces[0]!;
}

export function statusCounts(ws: Workspace): Record<PostStatus, number> {
  return Object.fromEntries(POST_STATUSES.map((s) => [s, ws.postsPage([s], 0, 0).total])) as Record<PostStatus, number>;
}

export function postsByStatus(ws: Workspace, statuses: readonly PostStatus[], offset: number, limit: number): { posts: PostJson[]; total: number } {
  const page = ws.postsPage(statuses, offset, limit);
  return { posts: page.items.map((i) => ws.postJson(i)), total: page.total };
}

/**
 * A post's status as the page names it: a scheduled post whose time has come is `processing`
 * (SyncPostly's name for it, and what its API answers), not a `scheduled` one in the past.
 */
export function shownStatus(post: Pick<PostJson, 'status' | 'scheduledAt'>, now: number): string {
  return spStatusOf(post, now) === 'processing' ? 'processing' : post.status;
}

/** Scheduled posts due in [from, to), earliest first (at most `max` scheduled posts are looked at). */
export function scheduledBetween(ws: Workspace, from: number, to: number, max = 2_000): PostJson[] {
  const page = ws.postsPage(['scheduled'], 0, max);
  const due: PostJson[] = [];
  for (const i of page.items) {
    const live = ws.livePost(i);
    if (live?.scheduledAt != null && live.scheduledAt >= from && live.scheduledAt < to) due.push(ws.postJson(i));
  }
  return due.sort((a, b) => (a.scheduledAt! < b.scheduledAt! ? -1 : 1));
}

/** A post of any workspace (the dashboard shows them all). */
export function findPost(core: SandboxCore, id: string): { ws: Workspace; post: PostJson } | undefined {
  for (const ws of core.workspaces) {
    const i = ws.findPost(id);
    if (i !== undefined) return { ws, post: ws.postJson(i) };
  }
  return undefined;
}

/** The per-account settings a SyncPostly client sent with the post (account_configurations, kept verbatim); undefined when none. */
export function accountConfigurations(ws: Workspace, postId: string): Record<string, unknown> | undefined {
  const i = ws.findPost(postId);
  const sent = i === undefined ? undefined : ws.livePost(i)?.extras?.account_configurations;
  return typeof sent === 'object' && sent !== null && !Array.isArray(sent) ? (sent as Record<string, unknown>) : undefined;
}

export function resultsOfPost(ws: Workspace, postId: string): ResultJson[] {
  return ws.resultsPage({ postIds: [postId], platforms: [] }, 0, 100).items.map((r) => ws.resultJson(r));
}

export interface ResultFilter {
  platforms: readonly string[];
  account: string | null;
  code: string | null;
  failedOnly: boolean;
}

export interface ResultScan {
  rows: ResultJson[];
  /** Rows matching the service-side filter (platform); the others are judged row by row. */
  total: number;
  scanned: number;
  /** True when the scan stopped at its cap before filling the page. */
  capped: boolean;
}

/**
 * A newest-first page of results. The platform filter uses the store's index; account, code and
 * failures are judged row by row, looking at no more than `scanCap` rows, so a rare code in a
 * million rows costs a bounded time (the page says when it stopped).
 */
export function resultsPage(ws: Workspace, f: ResultFilter, offset: number, limit: number, scanCap = 20_000): ResultScan {
  const platforms = f.platforms.filter(isPlatform);
  const rowFilter = f.account !== null || f.code !== null || f.failedOnly;
  if (!rowFilter) {
    const page = ws.resultsPage({ postIds: [], platforms }, offset, limit);
    return { rows: page.items.map((r) => ws.resultJson(r)), total: page.total, scanned: page.items.length, capped: false };
  }
  const rows: ResultJson[] = [];
  let skipped = 0;
  let scanned = 0;
  let total = 0;
  const chunk = 500;
  for (let at = 0; scanned < scanCap; at += chunk) {
    const page = ws.resultsPage({ postIds: [], platforms }, at, chunk);
    total = page.total;
    for (const r of page.items) {
      scanned++;
      // A success row is told by its flag, before its JSON (the costly part) is made.
      if ((f.failedOnly || f.code !== null) && ws.succeeded(r)) continue;
      const row = ws.resultJson(r);
      if (f.failedOnly && row.success) continue;
      if (f.account !== null && row.social_account_id !== f.account) continue;
      if (f.code !== null && row.error?.code !== f.code) continue;
      if (skipped < offset) skipped++;
      else rows.push(row);
      if (rows.length >= limit) return { rows, total, scanned, capped: false };
    }
    if (page.items.length < chunk) return { rows, total, scanned, capped: false };
  }
  return { rows, total, scanned, capped: true };
}

/** A webhook delivery with all its attempts, oldest attempt first. */
export interface DeliveryView {
  webhookId: string;
  attempts: DeliveryLogEntry[];
  /** What was delivered, when the sandbox still holds it. */
  payload: { postId?: string; platform?: string; status?: string; resultId?: string } | undefined;
}

export function deliveries(core: SandboxCore, limit = 100): DeliveryView[] {
  const byId = new Map<string, DeliveryLogEntry[]>();
  const log = core.webhooks.log;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!;
    let list = byId.get(e.webhookId);
    if (!list) {
      if (byId.size >= limit) continue;
      byId.set(e.webhookId, (list = []));
    }
    list.unshift(e);
  }
  return [...byId].map(([webhookId, attempts]) => ({ webhookId, attempts, payload: core.webhooks.payloadOf(webhookId) }));
}

/** Sends a delivery once more (a new attempt, numbered after the last); false when its body is no longer held. */
export function resendDelivery(core: SandboxCore, webhookId: string): boolean {
  return core.webhooks.resend(webhookId);
}

export function webhookUrl(core: SandboxCore): string | undefined {
  return core.webhooks.url;
}

/** The request log, newest first. */
export function requestLog(core: SandboxCore, limit = 200): RequestLogEntry[] {
  return core.requests.slice(-limit).reverse();
}

export interface Faults {
  chaos: number;
  failureRate: number;
  latencyMs: number;
}

export function faults(core: SandboxCore): Faults {
  return { chaos: core.chaos.rate, failureRate: core.config.failureRate, latencyMs: core.config.latencyMs };
}

export function setFaults(core: SandboxCore, next: Partial<Pick<Faults, 'chaos' | 'failureRate'>>): void {
  if (next.chaos !== undefined) core.chaos.rate = core.config.chaos = next.chaos;
  if (next.failureRate !== undefined) core.config.failureRate = next.failureRate;
}

/** An account as the dashboard shows it: as the accounts route answers it (contract 7.2). */
export type AccountView = AccountJson;

/** The workspace's accounts (contract 7.2), as the accounts route answers them. */
export function accounts(ws: Workspace): AccountView[] {
  return ws.socialAccounts.list({ platforms: [], statuses: [] }).map((a) => ws.socialAccounts.json(a));
}

/**
 * Expires, disconnects or reconnects an account, committed like a request's write (the same
 * change as POST /sandbox/accounts/{id}/ACTION); false when there is no such account.
 */
export function accountAction(core: SandboxCore, ws: Workspace, id: string, action: AccountAction): boolean {
  const a = ws.socialAccounts.find(id);
  if (!a) return false;
  core.commit(() => ws.socialAccounts.apply(a, action, core.clock.now()));
  return true;
}

/** Changes whenever something the pages show may have changed (cheap: compared every quarter second). */
export function changeSignature(core: SandboxCore): string {
  const last = core.requests[core.requests.length - 1];
  const counts = core.workspaces.map((w) => `${w.nextPostIndex()}.${w.nextRow()}.${w.postsPage(['scheduled'], 0, 0).total}`).join(',');
  return `${core.requests.length}:${last?.requestId ?? ''}:${core.webhooks.log.length}:${counts}:${core.chaos.rate}:${core.config.failureRate}`;
}
