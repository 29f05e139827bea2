// What a destructive change will do, in words a user can judge before saying yes. Text from the
// service is quoted as a JSON string (and cut), so a title cannot pass for part of the question.
import { asEscape, hiddenCharacters } from '../wire/hidden-characters.js';
import type { Post } from '../wire/schemas.js';

const LONGEST_QUOTE = 120;

const HIDDEN = hiddenCharacters();

/**
 * A JSON string of the text, cut at LONGEST_QUOTE characters, with what JSON leaves raw but a person
 * cannot see (a right-to-left override that would reverse the rest of the question) as escapes.
 */
export function quote(text: string): string {
  const chars = [...text];
  return JSON.stringify(chars.length > LONGEST_QUOTE ? `${chars.slice(0, LONGEST_QUOTE - 1).join('')}…` : text).replace(HIDDEN, asEscape);
}

/** `post post_… (scheduled for …, on bluesky, threads, titled "…")`. */
export function describePost(post: Post): string {
  const when = post.status === 'scheduled' && post.scheduledAt ? `scheduled for ${post.scheduledAt}` : post.status;
  const title = post.title ? `, titled ${quote(post.title)}` : '';
  return `post ${post.id} (${when}, on ${Object.keys(post.payloads).join(', ')}${title})`;
}
