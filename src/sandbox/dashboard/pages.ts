// The dashboard's pages, rendered on the server from state.ts. Every value from the sandbox's
// state is the service's (hostile) text and goes through the escaping `html` template; the
// only markup that is not escaped is this file's own.
import { PLATFORMS, POST_STATUSES, isPostStatus, type PostStatus } from '../../wire/platforms.js';
import { html, type Raw } from '../../wire/preview/html.js';
import { previewPost } from '../../wire/preview/model.js';
import { fields, previewSections } from '../../wire/preview/html.js';
import { FAILURE_CODES } from '../failures.js';
import type { SandboxCore } from '../core.js';
import { safeDecode } from '../http/path-segment.js';
import * as state from './state.js';

export interface PageRequest {
  core: SandboxCore;
  path: string;
  query: URLSearchParams;
  now: number;
}

export interface PageOut {
  title: string;
  body: Raw;
  status?: number;
}

const SECTIONS = [
  ['/', 'Overview'],
  ['/dashboard/posts', 'Posts'],
  ['/dashboard/results', 'Results'],
  ['/dashboard/deliveries', 'Deliveries'],
  ['/dashboard/requests', 'Requests'],
  ['/dashboard/accounts', 'Accounts'],
  ['/dashboard/faults', 'Faults'],
] as const;

const PAGE_SIZE = 50;

/** A short UTC time for narrow tables: 12-01 10:00:05Z. */
const iso = (ms: number) => new Date(ms).toISOString().slice(5, 19).replace('T', ' ') + 'Z';
const when = (s: string | null | undefined) => (s ? s.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');
const wsLink = (path: string, ws: string, extra: Record<string, string> = {}) => `${path}?${new URLSearchParams({ ws, ...extra }).toString()}`;

function headline(post: state.PostJson): string {
  if (post.title) return post.title;
  for (const p of Object.values(post.payloads)) {
    const text = (p as { text?: unknown } | null)?.text;
    if (typeof text === 'string' && text.trim()) return Array.from(text).length > 80 ? `${Array.from(text).slice(0, 79).join('')}…` : text;
  }
  return '(no text)';
}

export function nav(core: SandboxCore, path: string, ws: string): Raw {
  const current = path === '/dashboard' ? '/' : path.startsWith('/dashboard/posts/') ? '/dashboard/posts' : path;
  return html`<strong>socialpub sandbox</strong><nav aria-label="sections">${SECTIONS.map(([href, label]) => html`<a href="${wsLink(href, ws)}"${current === href ? html` aria-current="page"` : ''}>${label}</a> `)}<a href="/openapi.json">OpenAPI</a></nav>
<form class="inline" method="get" action="${current}"><label>workspace <select name="ws">${state.workspaceNames(core).map((n) => html`<option${n === ws ? html` selected` : ''}>${n}</option>`)}</select></label> <button>show</button></form>
<span id="live" class="live" role="status">static</span>`;
}

export function render(r: PageRequest): PageOut {
  const ws = state.workspace(r.core, r.query.get('ws'));
  const path = r.path === '/dashboard' ? '/' : r.path;
  if (path === '/') return overview(r, ws);
  if (path === '/dashboard/posts') return postsPage(r, ws);
  if (path.startsWith('/dashboard/posts/')) return postPage(r, safeDecode(path.slice('/dashboard/posts/'.length)));
  if (path === '/dashboard/results') return resultsPage(r, ws);
  if (path === '/dashboard/deliveries') return deliveriesPage(r);
  if (path === '/dashboard/requests') return requestsPage(r);
  if (path === '/dashboard/accounts') return accountsPage(ws);
  if (path === '/dashboard/faults') return faultsPage(r);
  return { title: 'Not found', status: 404, body: html`<h1>Not found</h1><p>No dashboard page at <code>${r.path}</code>.</p>` };
}

function postRows(posts: state.PostJson[], now: number): Raw {
  if (!posts.length) return html`<p class="muted">No posts.</p>`;
  return html`<div class="scroll"><table class="stack"><thead><tr><th>post</th><th>status</th><th>targets</th><th class="wide">scheduled</th><th>text</th></tr></thead><tbody>${posts.map(
    (p) => html`<tr><td><a class="id" href="/dashboard/posts/${encodeURIComponent(p.id)}"><code>${p.id}</code></a></td><td>${state.shownStatus(p, now)}</td><td>${Object.entries(p.targets).map(([pl, t]) => html`<span class="${t === 'failed' ? 'bad' : t === 'published' ? 'ok' : 'muted'}">${pl}${t === 'failed' ? ' ✗' : t === 'published' ? ' ✓' : ''}</span> `)}</td><td class="wide">${when(p.scheduledAt)}</td><td class="wrap">${headline(p)}</td></tr>`,
  )}</tbody></table></div>`;
}

function weekCalendar(ws: ReturnType<typeof state.workspace>, now: number): Raw {
  const day = 86_400_000;
  const today = Math.floor(now / day) * day;
  // Monday of this week (UTC).
  const start = today - ((new Date(today).getUTCDay() + 6) % 7) * day;
  const due = state.scheduledBetween(ws, start, start + 7 * day);
  const days = Array.from({ length: 7 }, (_, i) => start + i * day);
  return html`<section aria-label="this week"><h2>This week (UTC) <small>scheduled posts; ${due.length} due</small></h2><div class="week">${days.map((d) => {
    const items = due.filter((p) => Date.parse(p.scheduledAt!) >= d && Date.parse(p.scheduledAt!) < d + day);
    return html`<div class="card day${d === today ? ' today' : ''}${items.length ? '' : ' empty'}"><h3>${new Date(d).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })}${d === today ? ' · today' : ''}</h3>${items.length ? items.map((p) => html`<a class="item" href="/dashboard/posts/${encodeURIComponent(p.id)}">${p.scheduledAt!.slice(11, 16)} ${headline(p)}</a>`) : html`<span class="muted">—</span>`}</div>`;
  })}</div></section>`;
}

function overview(r: PageRequest, ws: ReturnType<typeof state.workspace>): PageOut {
  const counts = state.statusCounts(ws);
  const latest = state.postsByStatus(ws, [], 0, 10);
  const failures = state.resultsPage(ws, { platforms: [], account: null, code: null, failedOnly: true }, 0, 10, 2_000);
  return {
    title: `Overview · ${ws.name}`,
    body: html`<h1>Workspace ${ws.name}</h1>
<section aria-label="posts by status"><div class="grid">${POST_STATUSES.map((s) => html`<a class="card" href="${wsLink('/dashboard/posts', ws.name, { status: s })}"><strong>${counts[s].toLocaleString('en-US')}</strong> ${s}</a>`)}</div></section>
${weekCalendar(ws, r.now)}
<h2>Latest posts <small>${latest.total.toLocaleString('en-US')} in all</small></h2>${postRows(latest.posts, r.now)}
<h2>Latest failures</h2>${resultTable(failures.rows)}
<p><a href="${wsLink('/dashboard/results', ws.name, { failed: '1' })}">All failures</a></p>`,
  };
}

function pager(path: string, params: Record<string, string>, offset: number, shown: number, total: number | null): Raw {
  // An empty list has said so already ("No posts."): no "0 of 0" under it.
  if (!shown && !offset) return html``;
  const prev = offset > 0 ? html`<a href="${`${path}?${new URLSearchParams({ ...params, offset: String(Math.max(0, offset - PAGE_SIZE)) })}`}">← newer</a>` : '';
  const more = total === null ? shown === PAGE_SIZE : offset + shown < total;
  const next = more ? html`<a href="${`${path}?${new URLSearchParams({ ...params, offset: String(offset + PAGE_SIZE) })}`}">older →</a>` : '';
  return html`<p>${prev} ${shown ? `${offset + 1}–${offset + shown}` : '0'}${total !== null ? ` of ${total.toLocaleString('en-US')}` : ''} ${next}</p>`;
}

const offsetOf = (q: URLSearchParams) => Math.max(0, Math.min(1e9, Number.parseInt(q.get('offset') ?? '0', 10) || 0));

function postsPage(r: PageRequest, ws: ReturnType<typeof state.workspace>): PageOut {
  const status = r.query.getAll('status').filter(isPostStatus);
  const offset = offsetOf(r.query);
  const page = state.postsByStatus(ws, status, offset, PAGE_SIZE);
  const counts = state.statusCounts(ws);
  const tab = (s: PostStatus | null, label: string) => html`<a href="${wsLink('/dashboard/posts', ws.name, s ? { status: s } : {})}"${(s === null ? status.length === 0 : status.length === 1 && status[0] === s) ? html` aria-current="true"` : ''}>${label}</a> `;
  return {
    title: `Posts · ${ws.name}`,
    body: html`<h1>Posts <small>${ws.name}</small></h1><p>${tab(null, 'all')}${POST_STATUSES.map((s) => tab(s, `${s} (${counts[s].toLocaleString('en-US')})`))}</p>
${postRows(page.posts, r.now)}${pager('/dashboard/posts', { ws: ws.name, ...(status.length === 1 ? { status: status[0]! } : {}) }, offset, page.posts.length, page.total)}`,
  };
}

function postPage(r: PageRequest, id: string): PageOut {
  const found = state.findPost(r.core, id);
  if (!found) return { title: 'Post not found', status: 404, body: html`<h1>Post not found</h1><p>No workspace of this sandbox has a post <code>${id}</code>.</p>` };
  const { ws, post } = found;
  const results = state.resultsOfPost(ws, post.id);
  const latest = new Map<string, state.ResultJson>();
  for (const row of results) if (!latest.has(row.platform)) latest.set(row.platform, row);
  return {
    title: `Post ${post.id}`,
    body: html`<h1>Post <code>${post.id}</code></h1>
<p>${state.shownStatus(post, r.now)} · workspace ${ws.name} · scheduled ${when(post.scheduledAt)} · created ${when(post.createdAt)}${post.title ? html` · <strong>${post.title}</strong>` : ''}</p>
<h2>Targets</h2><div class="scroll"><table class="stack"><thead><tr><th>platform</th><th>outcome</th><th>account</th><th>details</th></tr></thead><tbody>${Object.entries(post.targets).map(([platform, outcome]) => {
      const row = latest.get(platform);
      return html`<tr><td>${platform}</td><td class="${outcome === 'failed' ? 'bad' : outcome === 'published' ? 'ok' : 'muted'}">${outcome}</td><td>${row ? row.platform_data.username : html`<code>${payloadAccounts(post.payloads[platform]).join(', ')}</code>`}</td><td class="wrap">${outcomeDetail(row)}</td></tr>`;
    })}</tbody></table></div>
${accountSettings(state.accountConfigurations(ws, post.id))}
<h2>Previews</h2>${previewSections(previewPost(post))}`,
  };
}

/** The accounts a platform's payload names (shown until a result names the one it published with). */
function payloadAccounts(payload: unknown): string[] {
  const list = (payload as { accounts?: unknown } | null)?.accounts;
  return Array.isArray(list) ? list.filter((a): a is string => typeof a === 'string') : [];
}

/** SyncPostly's account_configurations: shown, since no preview carries them. */
function accountSettings(configs: Record<string, unknown> | undefined): Raw {
  if (!configs || !Object.keys(configs).length) return html``;
  return html`<h2>Account configurations <small>as sent through SyncPostly's API</small></h2><div class="scroll"><table class="stack"><thead><tr><th>account</th><th>settings</th></tr></thead><tbody>${Object.entries(configs).map(([id, c]) => html`<tr><td><code>${id}</code></td><td>${fields(c)}</td></tr>`)}</tbody></table></div>`;
}

function outcomeDetail(row: state.ResultJson | undefined): Raw {
  if (!row) return html`<span class="muted">no result yet</span>`;
  // Only an https address becomes a link (never javascript: or data:), opened only when clicked.
  const url = row.platform_data.url;
  if (row.success) return url && /^https:\/\//i.test(url) ? html`<a href="${url}" rel="noreferrer noopener" target="_blank"><code>${url}</code></a>` : html`<code>${url ?? '(no link)'}</code>`;
  return html`<strong>${row.error?.code}</strong> ${row.error?.message}<br>${fields(row.error?.context ?? {})}`;
}

function resultTable(rows: state.ResultJson[]): Raw {
  if (!rows.length) return html`<p class="muted">No results.</p>`;
  return html`<div class="scroll"><table class="stack"><thead><tr><th>time</th><th>post</th><th>platform</th><th class="wide">account</th><th>outcome</th></tr></thead><tbody>${rows.map(
    (r) => html`<tr><td>${when(r.created_at)}</td><td><a class="id" href="/dashboard/posts/${encodeURIComponent(r.post_id)}"><code>${r.post_id}</code></a></td><td>${r.platform}</td><td class="wide"><code>${r.social_account_id ?? '—'}</code> ${r.platform_data.username}</td><td class="wrap">${r.success ? html`<span class="ok">✓</span> <code>${r.platform_data.url ?? ''}</code>` : html`<span class="bad">✗ ${r.error?.code}</span> ${r.error?.message}<br>${fields(r.error?.context ?? {})}`}</td></tr>`,
  )}</tbody></table></div>`;
}

function resultsPage(r: PageRequest, ws: ReturnType<typeof state.workspace>): PageOut {
  const q = r.query;
  const platform = q.get('platform') || '';
  const account = q.get('account')?.trim() || '';
  const code = q.get('code') || '';
  const failedOnly = q.get('failed') === '1';
  const offset = offsetOf(q);
  const scan = state.resultsPage(ws, { platforms: platform ? [platform] : [], account: account || null, code: code || null, failedOnly }, offset, PAGE_SIZE);
  const params: Record<string, string> = { ws: ws.name, ...(platform ? { platform } : {}), ...(account ? { account } : {}), ...(code ? { code } : {}), ...(failedOnly ? { failed: '1' } : {}) };
  const filtered = Boolean(account || code || failedOnly);
  return {
    title: `Results · ${ws.name}`,
    body: html`<h1>Results <small>${ws.name}</small></h1>
<form class="filters" method="get" action="/dashboard/results"><input type="hidden" name="ws" value="${ws.name}">
<label>platform<select name="platform"><option value="">any</option>${PLATFORMS.map((p) => html`<option${p === platform ? html` selected` : ''}>${p}</option>`)}</select></label>
<label>account id<input name="account" value="${account}" size="14"></label>
<label>error code<select name="code"><option value="">any</option>${FAILURE_CODES.map((c) => html`<option${c === code ? html` selected` : ''}>${c}</option>`)}</select></label>
<label><span>failures only</span><input type="checkbox" name="failed" value="1"${failedOnly ? html` checked` : ''}></label>
<button>filter</button></form>
${scan.capped ? html`<p class="warn">Looked at the newest ${scan.scanned.toLocaleString('en-US')} rows only: narrow by platform to look further.</p>` : ''}
${resultTable(scan.rows)}${pager('/dashboard/results', params, offset, scan.rows.length, filtered ? null : scan.total)}`,
  };
}

function deliveriesPage(r: PageRequest): PageOut {
  const list = state.deliveries(r.core);
  const url = state.webhookUrl(r.core);
  return {
    title: 'Webhook deliveries',
    body: html`<h1>Webhook deliveries</h1><p>${url ? html`Delivering to <code>${url}</code>.` : html`<span class="warn">No webhook URL: start the sandbox with --webhook-url to deliver.</span>`}</p>
${list.length ? list.map(
      (d) => html`<section class="card" aria-label="delivery ${d.webhookId}"><h3><code>${d.webhookId}</code> ${d.payload ? html`<small>${d.payload.status} · ${d.payload.platform} · <a href="/dashboard/posts/${encodeURIComponent(d.payload.postId ?? '')}">${d.payload.postId}</a></small>` : ''}</h3>
<div class="scroll"><table><thead><tr><th>attempt</th><th>at</th><th>answer</th><th class="wide">duration</th><th>next retry</th></tr></thead><tbody>${d.attempts.map(
        (a) => html`<tr><td>${a.attempt}${a.resent ? ' (resent)' : ''}</td><td>${iso(a.at)}</td><td class="${a.status >= 200 && a.status < 300 ? 'ok' : 'bad'}">${a.status || 'no answer'}${a.error ? html` · ${a.error}` : ''}</td><td class="wide">${a.durationMs !== undefined ? `${a.durationMs} ms` : '—'}</td><td>${a.nextAt !== undefined ? iso(a.nextAt) : '—'}</td></tr>`,
      )}</tbody></table></div>
<button type="button" data-action="/dashboard/api/resend" data-body="${JSON.stringify({ webhookId: d.webhookId })}"${url ? '' : html` disabled`}>Resend ${d.webhookId}</button></section>`,
    ) : html`<p class="muted">No deliveries yet.</p>`}`,
  };
}

function requestsPage(r: PageRequest): PageOut {
  const log = state.requestLog(r.core);
  return {
    title: 'Request log',
    body: html`<h1>Request log <small>newest first, the last ${log.length}</small></h1>${log.length ? html`<div class="scroll"><table><thead><tr><th>time</th><th>request</th><th>status</th><th class="wide">workspace</th><th>idempotency</th><th class="wide">request id</th></tr></thead><tbody>${log.map(
      (e) => html`<tr><td>${e.at ? iso(e.at) : '—'}</td><td><code>${e.method} ${e.path}${e.query ? html`?${e.query}` : ''}</code></td><td class="${e.status >= 400 || e.status === 0 ? 'bad' : 'ok'}">${e.status || 'cut'}${e.fault ? ` (${e.fault})` : ''}</td><td class="wide">${e.workspace ?? '—'}</td><td>${e.idempotencyKeyLast4 !== undefined ? html`key …${e.idempotencyKeyLast4}${e.replayed ? html` <strong>replayed</strong>` : ''}` : ''}</td><td class="wide"><code>${e.requestId}</code></td></tr>`,
    )}</tbody></table></div>` : html`<p class="muted">No requests yet.</p>`}`,
  };
}

function accountsPage(ws: ReturnType<typeof state.workspace>): PageOut {
  const list = state.accounts(ws);
  return {
    title: `Accounts · ${ws.name}`,
    body: html`<h1>Accounts <small>${ws.name}</small></h1>${
      list.length === 0
        ? html`<p class="muted">No accounts: this workspace has no connected accounts.</p>`
        : html`<div class="scroll"><table class="stack"><thead><tr><th>account</th><th>platform</th><th>status</th><th class="wide">token expires</th><th>try a failure</th></tr></thead><tbody>${list.map(
            (a) => html`<tr><td><code>${a.id}</code> ${a.username.startsWith('@') ? '' : html`@`}${a.username}${a.displayName ? html` (${a.displayName})` : ''}${a.isDefault ? html` · default` : ''}</td><td>${a.platform}</td><td class="${a.status === 'connected' ? 'ok' : 'bad'}">${a.status}</td><td class="wide">${when(a.tokenExpiresAt)}</td><td>${(['expire', 'disconnect', 'reconnect'] as const).map((act) => html`<button type="button" data-action="/dashboard/api/accounts" data-body="${JSON.stringify({ ws: ws.name, id: a.id, action: act })}">${act}</button> `)}</td></tr>`,
          )}</tbody></table></div>`
    }`,
  };
}

function faultsPage(r: PageRequest): PageOut {
  const f = state.faults(r.core);
  return {
    title: 'Faults',
    body: html`<h1>Fault settings</h1>
<form class="filters" data-action="/dashboard/api/faults">
<label>chaos (share of requests that meet a fault)<input name="chaos" type="number" min="0" max="1" step="0.01" value="${f.chaos}"></label>
<label>failure rate (share of targets that fail)<input name="failureRate" type="number" min="0" max="1" step="0.01" value="${f.failureRate}"></label>
<button>apply</button></form>
<p>latency added to every response: ${f.latencyMs} ms (set at start with --latency).</p>`,
  };
}
