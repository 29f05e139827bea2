// From a validated draft to the JSON body that POST /v1/posts and POST /v1/schedule take.
import { isPlatform, mediaKind } from '../wire/platforms.js';
import { PLATFORM_EXTRAS } from '../wire/post-extras.js';
import type { CreatePostBody, MediaRef, Payloads } from '../wire/schemas.js';
import type { MediaSource, PostDraft } from './draft.js';
import type { MediaFacts } from './media-facts.js';

/** Facts for every media item of the draft, read once per distinct item. */
export async function collectFacts(drafts: readonly PostDraft[], inspect: (m: MediaSource) => Promise<MediaFacts>): Promise<Map<MediaSource, MediaFacts>> {
  const facts = new Map<MediaSource, MediaFacts>();
  for (const d of drafts) {
    for (const p of d.platforms) {
      for (const m of p.media) facts.set(m, await inspect(m));
      for (const part of p.thread ?? []) for (const m of part.media) facts.set(m, await inspect(m));
    }
  }
  return facts;
}

/** Local files of the draft, each once (the same file on several platforms is uploaded once). */
export function localFiles(draft: PostDraft): MediaSource[] {
  const seen = new Map<string, MediaSource>();
  for (const p of draft.platforms) for (const m of [...p.media, ...(p.thread ?? []).flatMap((t) => t.media)]) if (!m.isUrl && !seen.has(m.path!)) seen.set(m.path!, m);
  return [...seen.values()];
}

/**
 * The body. `urlOf` maps a local file's path to the URL it was uploaded to (or a placeholder in
 * a dry run); URLs pass through unchanged.
 */
export function buildBody(draft: PostDraft, facts: Map<MediaSource, MediaFacts>, urlOf: (path: string) => string): CreatePostBody {
  const payloads: Payloads = {};
  for (const p of draft.platforms) {
    // Alt text goes where the platform shows it; elsewhere it is left out (posts check says so).
    const alt = isPlatform(p.platform) && PLATFORM_EXTRAS[p.platform].alt !== undefined;
    const refs = (list: readonly MediaSource[]): MediaRef[] =>
      list.map((m) => {
        const mime = facts.get(m)?.mimeType;
        const type = (m.declaredType ?? (mime ? mediaKind(mime) : undefined)) as 'image' | 'video' | undefined;
        return { ...(m.extra ?? {}), url: m.isUrl ? m.source : urlOf(m.path!), ...(type ? { type } : {}), ...(alt && m.alt !== undefined ? { alt: m.alt } : {}) };
      });
    const media = refs(p.media);
    payloads[p.platform] = {
      ...p.extra,
      text: p.text ?? '',
      ...(media.length ? { media } : {}),
      ...(p.thread?.length ? { thread: p.thread.map((part) => ({ text: part.text, ...(part.media.length ? { media: refs(part.media) } : {}) })) } : {}),
      ...(p.firstComment !== undefined ? { firstComment: p.firstComment } : {}),
      ...(p.options && Object.keys(p.options).length ? { options: p.options } : {}),
    };
  }
  return { ...draft.extraTop, payloads, ...(draft.title !== undefined ? { title: draft.title } : {}) };
}
