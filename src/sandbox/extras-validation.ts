// The service's rules for what a payload carries beyond text and media (contract 7.3): `thread`,
// `firstComment`, `media[].alt` and `options`, as 422 issues with paths. Shapes are checked here;
// lengths, what each platform takes and the settings' values come from the shared judge
// (src/wire/extras-rules.ts), so the client's words and the service's agree.
import type { Platform } from '../wire/platforms.js';
import { judgeExtras } from '../wire/extras-rules.js';
import { judgePayload, type MediaItemFacts, type PayloadFacts, type ThreadPartFacts } from '../wire/post-rules.js';

export interface ExtraIssue {
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The rules a part is judged on when the post is created: its text and how many media items (their bytes are judged when it publishes). */
const CREATE_RULES = /^(text\.|media\.count$)/;

export function checkExtras(platform: Platform, payload: Record<string, unknown>, path: string, issues: ExtraIssue[]): void {
  const facts: PayloadFacts = { text: typeof payload.text === 'string' ? payload.text : '', media: [] };
  let shapeOk = true;
  const bad = (at: string, message: string) => {
    issues.push({ path: `${path}.${at}`, message });
    shapeOk = false;
  };
  if (payload.thread !== undefined) {
    if (!Array.isArray(payload.thread)) bad('thread', 'must be an array of {"text": string, "media"?: [{"url": string}]}: the parts after the first');
    else {
      const parts: ThreadPartFacts[] = [];
      payload.thread.forEach((part: unknown, i) => {
        if (!isObject(part) || typeof part.text !== 'string') return bad(`thread.${i}.text`, 'required: a string');
        if (part.media !== undefined && !Array.isArray(part.media)) return bad(`thread.${i}.media`, 'must be an array of {"url": string}');
        const media = (part.media as unknown[] | undefined) ?? [];
        parts.push({ text: part.text, media: media.map((_, j) => ({ label: `thread[${i}].media[${j}]` })) });
      });
      facts.thread = parts;
    }
  }
  if (payload.firstComment !== undefined) {
    if (typeof payload.firstComment !== 'string') bad('firstComment', 'must be a string');
    else facts.firstComment = payload.firstComment;
  }
  if (payload.options !== undefined) facts.options = payload.options;
  if (Array.isArray(payload.media)) {
    facts.media = payload.media.map((item: unknown, i): MediaItemFacts => {
      const alt = isObject(item) ? item.alt : undefined;
      if (alt !== undefined && typeof alt !== 'string') bad(`media.${i}.alt`, 'must be a string');
      return { label: `media[${i}]`, ...(typeof alt === 'string' ? { alt } : {}) };
    });
  }
  if (!shapeOk) return;
  const checks = judgeExtras(platform, facts, (part) => judgePayload(platform, { text: part.text, media: part.media }).filter((c) => CREATE_RULES.test(c.rule)));
  for (const c of checks) {
    if (c.verdict !== 'fail') continue;
    // Paths on the wire use dots for indexes, as the other 422 issues do (payloads.x.media.0.url).
    const at = (c.path ?? c.rule).replace(/\[(\d+)\]/g, '.$1');
    issues.push({ path: `${path}.${at}`, message: `${c.message ?? c.rule}${c.fix ? `; ${c.fix}` : ''}` });
  }
}
