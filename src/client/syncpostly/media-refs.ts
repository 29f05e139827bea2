// What a media id of SyncPostly is called in the domain (assumptions.mediaRefs): a post holds
// media ids, a payload media URLs. The URL is known for media this client uploaded or fetched;
// any other id reads back as `syncpostly-media:<id>`, which is sent back as that id.

export const SP_MEDIA_SCHEME = 'syncpostly-media:';

export class MediaRefs {
  private readonly urlById = new Map<string, string>();
  private readonly idByUrl = new Map<string, string>();

  remember(id: string, url: string | null | undefined): void {
    if (!url) return;
    this.urlById.set(id, url);
    this.idByUrl.set(url, id);
  }

  urlOf(id: string): string {
    return this.urlById.get(id) ?? `${SP_MEDIA_SCHEME}${id}`;
  }

  /** The media id a domain reference names, when it names one this client knows. */
  idOf(url: string): string | undefined {
    if (url.startsWith(SP_MEDIA_SCHEME)) return url.slice(SP_MEDIA_SCHEME.length) || undefined;
    return this.idByUrl.get(url);
  }
}
