// The service's rules for what a payload carries beyond text and media (contract 7.3): `thread`,
// `firstComment`, `media[].alt` and `options`, as 422 issues with paths. Their shapes are the
// contract's schema (checked first, contract-check.ts); lengths, what each platform takes and the
// settings' values come from the shared judge (src/wire/extras-rules.ts), so the client's words
// and the service's agree.
import type { Platform } from '../wire/platforms.js';
import { judgeExtras } from '../wire/extras-rules.js';
import { judgePayload, type MediaItemFacts, type PayloadFacts } from '../wire/post-rules.js';
import type { Issue, Shape } from './contract-check.js';
import type { PlatformPayload } from './validation.js';

/**
 * The rules a part is judged on when the post is created: its text, how many media items and
 * their alt text (their bytes are judged when it publishes).
 */
const CREATE_RULES = /^(text\.|media\.(count|alt)$)/;

export function checkExtras(platform: Platform, payload: PlatformPayload, path: string, shape: Shape, issues: Issue[]): void {
  const media = shape.fits(`${path}.media`) ? (payload.media ?? []) : [];
  // Judged only when each extra has the shape the schema gives it (else the schema named it).
  const sound = ['thread', 'firstComment', 'options'].every((f) => shape.sound(`${path}.${f}`)) && media.every((_, i) => shape.fits(`${path}.media.${i}.alt`));
  if (!sound) return;
  const facts: PayloadFacts = {
    text: shape.fits(`${path}.text`) ? payload.text : '',
    media: media.map((item, i): MediaItemFacts => ({ label: `media[${i}]`, ...(item.alt !== undefined ? { alt: item.alt } : {}) })),
    ...(payload.thread ? { thread: payload.thread.map((part, i) => ({ text: part.text, media: (part.media ?? []).map((m, j) => ({ label: `thread[${i}].media[${j}]`, ...(m.alt !== undefined ? { alt: m.alt } : {}) })) })) } : {}),
    ...(payload.firstComment !== undefined ? { firstComment: payload.firstComment } : {}),
    ...(payload.options !== undefined ? { options: payload.options } : {}),
  };
  const checks = judgeExtras(platform, facts, (part) => judgePayload(platform, { text: part.text, media: part.media }).filter((c) => CREATE_RULES.test(c.rule)));
  for (const c of checks) {
    if (c.verdict !== 'fail') continue;
    // Paths on the wire use dots for indexes, as the other 422 issues do (payloads.x.media.0.url).
    const at = (c.path ?? c.rule).replace(/\[(\d+)\]/g, '.$1');
    issues.push({ path: `${path}.${at}`, message: `${c.message ?? c.rule}${c.fix ? `; ${c.fix}` : ''}` });
  }
}
