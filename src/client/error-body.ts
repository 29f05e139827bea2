// Reads an error response of any shape: the contract's `{ error: { code, message, issues }, requestId }`,
// other JSON conventions, plain text, an HTML error page from a proxy, or nothing at all.
import type { ErrorIssue } from '../wire/schemas.js';

export interface DescribedBody {
  /** Parsed JSON when the body was JSON, else the text (undefined when empty). */
  body: unknown;
  message: string | undefined;
  code: string | undefined;
  issues: ErrorIssue[];
  requestId: string | undefined;
}

const MAX_MESSAGE = 300;

export function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * `mask` runs on the parsed body before anything is taken from it, so that a message clipped to
 * its first 300 characters cannot keep half of a secret.
 */
export function describeErrorBody(text: string, mask: (body: unknown) => unknown = (body) => body): DescribedBody {
  const body = mask(parseBody(text));
  const out: DescribedBody = { body, message: undefined, code: undefined, issues: [], requestId: undefined };
  if (body === undefined) return out;
  if (typeof body === 'string') {
    out.message = messageFromText(body);
    return out;
  }
  if (!isRecord(body)) return out;
  const err = body.error;
  if (isRecord(err)) {
    out.code = str(err.code) ?? str(err.type);
    out.message = str(err.message) ?? str(err.detail);
    out.issues = issuesFrom(err.issues ?? err.details);
  } else if (typeof err === 'string') {
    // { error: "not_found", message: "..." } or { error: "Something went wrong" }
    if (/^[A-Z0-9_]+$/i.test(err) && str(body.message)) out.code = err;
    else out.message = err;
  }
  out.code ??= str(body.code);
  out.message ??= str(body.message) ?? str(body.detail) ?? str(body.title) ?? str(body.error_description) ?? firstMessage(body.errors);
  if (out.issues.length === 0) out.issues = issuesFrom(body.issues ?? body.errors);
  out.requestId = str(body.requestId) ?? str(body.request_id);
  if (out.message) out.message = clip(out.message);
  return out;
}

function messageFromText(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^<(!doctype|html|\?xml|head|body)/i.test(trimmed) || /<\/(html|body|h1|title)>/i.test(trimmed)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(trimmed)?.[1];
    const plain = (title ?? trimmed.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, '')).replace(/<[^>]+>/g, ' ');
    const collapsed = decodeEntities(plain).replace(/\s+/g, ' ').trim();
    return collapsed ? clip(collapsed) : undefined;
  }
  const line = trimmed.split(/\r?\n/).find((l) => l.trim() !== '');
  return line ? clip(line.trim()) : undefined;
}

function issuesFrom(value: unknown): ErrorIssue[] {
  if (!Array.isArray(value)) return [];
  const issues: ErrorIssue[] = [];
  for (const item of value) {
    if (!isRecord(item)) continue;
    const message = str(item.message);
    if (!message) continue;
    const path = Array.isArray(item.path) ? item.path.map(String).join('.') : (str(item.path) ?? str(item.field) ?? '');
    issues.push({ path, message });
  }
  return issues;
}

function firstMessage(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const item of value) {
    if (typeof item === 'string' && item.trim()) return item;
    if (isRecord(item) && str(item.message)) return str(item.message);
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
