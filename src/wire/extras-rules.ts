// The rules of what a payload carries beyond its text and media (post-extras.ts): whether the
// platform takes a thread and a first comment, each later part judged as a post of its own, the
// first comment's length as the platform counts it, alt text against the platform's limit, and
// the settings against the platform's schema. Called by judgePayload (post-rules.ts).
import { mediaKind, textLength, type Platform } from './platforms.js';
import { optionSpec, PLATFORM_EXTRAS, valueMedia } from './post-extras.js';
import { judgeOptions } from './post-options.js';
import { countText } from './text-length.js';
import { judgeText, PLATFORM_NAMES, unitWord } from './text-limits.js';
import type { PayloadFacts, RuleCheck, ThreadPartFacts } from './post-rules.js';

const which = (test: (p: Platform) => boolean, all: readonly Platform[]) => all.filter(test).map((p) => PLATFORM_NAMES[p]).join(', ');
const ALL = Object.keys(PLATFORM_EXTRAS) as Platform[];
const THREAD_TAKERS = which((p) => PLATFORM_EXTRAS[p].thread !== undefined, ALL);
const COMMENT_TAKERS = which((p) => PLATFORM_EXTRAS[p].firstComment !== undefined, ALL);
const EXTRAS_SOURCE = 'extras table (src/wire/post-extras.ts), from each platform\'s publishing API';

/** `judgePart` judges one later part as a post (its text and media), by the platform's own rules. */
export function judgeExtras(platform: Platform, facts: PayloadFacts, judgePart: (part: ThreadPartFacts) => RuleCheck[]): RuleCheck[] {
  const extras = PLATFORM_EXTRAS[platform];
  const name = PLATFORM_NAMES[platform];
  const checks: RuleCheck[] = [];
  if (facts.thread !== undefined) {
    const thread = extras.thread;
    if (!thread) {
      checks.push({ rule: 'thread.supported', verdict: 'fail', path: 'thread', actual: `${facts.thread.length + 1} parts`, limit: 'no threads', message: `${name} publishes no threads`, fix: `send the whole text as one post (threads go to ${THREAD_TAKERS})`, code: 'NOT_SUPPORTED', source: EXTRAS_SOURCE });
    } else {
      const parts = facts.thread.length + 1;
      const over = parts > thread.maxParts;
      checks.push({ rule: 'thread.parts', verdict: over ? 'fail' : 'pass', path: 'thread', actual: String(parts), limit: `≤ ${thread.maxParts}`, ...(over ? { message: `a thread of ${parts} parts; ${name} takes at most ${thread.maxParts}`, fix: 'shorten the text or publish it as two threads', code: 'TEXT_TOO_LONG' as const } : {}), source: thread.source });
      facts.thread.forEach((part, i) => {
        if (part.text.trim() === '' && part.media.length === 0) {
          checks.push({ rule: 'thread.text.length', verdict: 'fail', part: i, path: `thread[${i}].text`, actual: 'empty', limit: 'text or media', message: `thread part ${i + 2} is empty`, fix: 'give it text, or remove the part', code: 'TEXT_TOO_LONG', source: thread.source });
          return;
        }
        for (const c of judgePart(part)) {
          const at = c.rule.startsWith('text.') ? 'text' : c.item ? 'media' : 'media';
          checks.push({ ...c, rule: `thread.${c.rule}`, part: i, path: c.path ? `thread[${i}].${c.path}` : `thread[${i}].${at}`, ...(c.message ? { message: `thread part ${i + 2}: ${c.message}` } : {}) });
        }
      });
    }
  }
  if (facts.firstComment !== undefined) checks.push(judgeFirstComment(platform, facts.firstComment));
  facts.media.forEach((m, i) => {
    if (m.alt === undefined) return;
    const alt = extras.alt;
    const n = textLength(m.alt);
    if (!alt) {
      checks.push({ rule: 'media.alt', verdict: 'warn', item: m.label, path: `media[${i}].alt`, actual: `${n} characters`, limit: 'not shown', message: `${name} shows no alt text; it is left out there`, fix: 'nothing to do', source: EXTRAS_SOURCE });
      return;
    }
    const over = n > alt.max;
    checks.push({ rule: 'media.alt', verdict: over ? 'fail' : 'pass', item: m.label, path: `media[${i}].alt`, actual: String(n), limit: `≤ ${alt.max}`, ...(over ? { message: `alt text of ${n} characters; ${name} takes at most ${alt.max}`, fix: `shorten it by ${n - alt.max}`, code: 'TEXT_TOO_LONG' as const } : {}), source: alt.source });
  });
  if (facts.options !== undefined) {
    const problems = judgeOptions(platform, facts.options);
    const given = typeof facts.options === 'object' && facts.options !== null ? Object.keys(facts.options) : [];
    for (const key of given) {
      if (problems.some((p) => p.key === key)) continue;
      const spec = extras.options.find((o) => o.key === key);
      checks.push({ rule: 'options', verdict: 'pass', path: `options.${key}`, actual: JSON.stringify((facts.options as Record<string, unknown>)[key]), limit: key, source: spec?.source ?? EXTRAS_SOURCE });
    }
    for (const p of problems) {
      const spec = extras.options.find((o) => o.key === p.key);
      checks.push({ rule: 'options', verdict: 'fail', path: p.key ? `options.${p.key}` : 'options', actual: p.key || 'options', limit: 'allowed values', message: p.message, fix: p.fix, code: 'OPTION_INVALID', source: spec?.source ?? EXTRAS_SOURCE });
    }
    for (const key of given) if (!problems.some((p) => p.key === key)) checks.push(...judgeValueMedia(platform, key, (facts.options as Record<string, unknown>)[key], facts));
  }
  return checks;
}

/** The media a setting's value needs (postType=reel: one video), against the payload's; nothing when the value needs none. */
function judgeValueMedia(platform: Platform, key: string, value: unknown, facts: PayloadFacts): RuleCheck[] {
  const needs = valueMedia(optionSpec(platform, key), value);
  if (!needs) return [];
  const name = PLATFORM_NAMES[platform];
  // An item whose kind cannot be told (a URL without a known extension) is left to the service.
  const kinds = facts.media.map((m) => (m.mimeType ? mediaKind(m.mimeType) : m.declaredKind));
  const wrongKind = kinds.filter((k) => k !== undefined && !(needs.kinds as readonly string[]).includes(k));
  const ok = facts.media.length === needs.count && wrongKind.length === 0;
  const had = facts.media.length === 0 ? 'none' : `${facts.media.length} ${facts.media.length === 1 ? 'item' : 'items'}${wrongKind.length ? ` (${[...new Set(wrongKind)].join(', ')})` : ''}`;
  return [
    {
      rule: 'options.media',
      verdict: ok ? 'pass' : 'fail',
      path: 'media',
      actual: had,
      limit: needs.describe,
      ...(ok ? {} : { message: `${key}=${value} on ${name} takes ${needs.describe}; this post has ${had}`, fix: `give ${needs.describe}, or another ${key}`, code: facts.media.length === 0 ? ('MEDIA_REQUIRED' as const) : ('MEDIA_REJECTED' as const) }),
      source: needs.source,
    },
  ];
}

/** A first comment judged for one platform, as a post's rules judge it (a prompt asks with it too). */
export function judgeFirstComment(platform: Platform, text: string): RuleCheck {
  const rule = PLATFORM_EXTRAS[platform].firstComment;
  const name = PLATFORM_NAMES[platform];
  if (!rule) {
    return { rule: 'firstComment', verdict: 'fail', path: 'firstComment', actual: 'given', limit: 'no first comment', message: `${name} takes no first comment`, fix: `leave it out for ${name} (first comments go to ${COMMENT_TAKERS})`, code: 'NOT_SUPPORTED', source: EXTRAS_SOURCE };
  }
  if (text.trim() === '') {
    return { rule: 'firstComment', verdict: 'fail', path: 'firstComment', actual: 'empty', limit: `≤ ${rule.max}`, message: 'the first comment is empty', fix: 'give it text, or leave it out', code: 'TEXT_TOO_LONG', source: rule.source };
  }
  // A reply is a post: counted exactly as the platform counts its posts.
  const n = rule.asReply ? judgeText(platform, text).count.length : countText(text, rule.unit).length;
  const over = n > rule.max;
  return { rule: 'firstComment', verdict: over ? 'fail' : 'pass', path: 'firstComment', actual: String(n), limit: `≤ ${rule.max}`, ...(over ? { message: `the first comment is ${n} ${unitWord(platform, n)}; ${name} takes at most ${rule.max}`, fix: `shorten it by ${n - rule.max}`, code: 'TEXT_TOO_LONG' as const } : {}), source: rule.source };
}
