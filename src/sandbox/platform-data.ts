// What a platform hands back after publishing: its own post id, the live URL and the account
// handle, shaped like each platform's real ones so that tables and links look right.
import type { Platform } from '../wire/platforms.js';
import { digits, hash, randomToken, STREAM, type Entropy } from './random.js';

export interface PlatformData {
  /** The platform's own id of the post; a failed row has none (nothing was published). */
  id?: string;
  url: string | null;
  username: string;
}

/** The handle of a workspace's connected account on a platform. */
export function usernameFor(workspace: string, platform: Platform): string {
  const w = workspace.toLowerCase().replace(/[^a-z0-9]/g, '');
  switch (platform) {
    case 'twitter-x':
      return `socialpub_${w}`;
    case 'linkedin':
      return `socialpub-${w}`;
    case 'facebook-page':
      return `Socialpub${w.charAt(0).toUpperCase()}${w.slice(1)}`;
    case 'youtube':
      return `@Socialpub${w.charAt(0).toUpperCase()}${w.slice(1)}`;
    case 'bluesky':
      return `socialpub-${w}.bsky.social`;
    case 'pinterest':
      return `socialpub${w}`;
    default:
      return `socialpub.${w}`;
  }
}

/** Platform data of a published (id and url set) or failed (neither) row, from the row's position. */
export function platformDataFor(e: Entropy, scope: number, row: number, platform: Platform, username: string, success: boolean): PlatformData {
  const d = (n: number) => digits(n, e, STREAM.platformId, scope, row);
  const code = (n: number) => randomToken(n, e, STREAM.platformId, hash(e, STREAM.platformId, scope, row));
  let id: string;
  let url: string;
  switch (platform) {
    case 'twitter-x':
      id = d(19);
      url = `https://x.com/${username}/status/${id}`;
      break;
    case 'instagram': {
      id = d(17);
      url = `https://www.instagram.com/p/${code(11)}/`;
      break;
    }
    case 'linkedin':
      id = `urn:li:share:${d(19)}`;
      url = `https://www.linkedin.com/feed/update/${id}/`;
      break;
    case 'facebook-page': {
      const page = digits(15, e, STREAM.platformId, scope, 0xfb);
      id = `${page}_${d(16)}`;
      url = `https://www.facebook.com/${page}/posts/${id.slice(page.length + 1)}`;
      break;
    }
    case 'tiktok':
      id = d(19);
      url = `https://www.tiktok.com/@${username}/video/${id}`;
      break;
    case 'youtube':
      id = code(11);
      url = `https://www.youtube.com/watch?v=${id}`;
      break;
    case 'bluesky': {
      const rkey = `3l${code(11).toLowerCase()}`;
      id = `at://did:plc:${randomToken(24, e, STREAM.platformId, scope).toLowerCase()}/app.bsky.feed.post/${rkey}`;
      url = `https://bsky.app/profile/${username}/post/${rkey}`;
      break;
    }
    case 'threads': {
      id = d(17);
      url = `https://www.threads.net/@${username}/post/${code(11)}`;
      break;
    }
    case 'pinterest':
      id = d(18);
      url = `https://www.pinterest.com/pin/${id}/`;
      break;
    default:
      // A platform added to src/wire/platforms.ts works at once, with a plain id and URL.
      id = d(18);
      url = `https://${platform}.example/posts/${id}`;
  }
  return success ? { id, url, username } : { url: null, username };
}
