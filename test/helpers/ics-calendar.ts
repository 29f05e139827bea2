// A calendar written as `posts list -o ics` writes one (header, an event per post with a time,
// footer), counting the posts it left out (drafts), so tests can read one whole.
import { icsEvent, icsFooter, icsHeader } from '../../src/posts/ics.js';
import type { Post } from '../../src/wire/schemas.js';

export interface IcsTally {
  events: number;
  skipped: number;
}

export async function* icsCalendar(posts: AsyncIterable<Post> | Iterable<Post>, options: { now: number }, tally: IcsTally = { events: 0, skipped: 0 }): AsyncGenerator<string> {
  yield icsHeader();
  for await (const post of posts) {
    const event = icsEvent(post, options);
    if (event === undefined) tally.skipped++;
    else {
      tally.events++;
      yield event;
    }
  }
  yield icsFooter();
}
