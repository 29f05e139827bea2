// Where each platform's feed folds a post's text behind "more", and which part of an image its
// feed shows. Neither is in any publishing API: these are the platforms' help pages where they
// say it, and otherwise the widely measured figures (marked "observed"), read 2026-11. A preview
// says "about": apps fold by lines and pixels as well as characters.
//
// | Platform      | Fold (characters)           | Feed image crop                                  | Feed video framing                  | Source |
// |---------------|-----------------------------|--------------------------------------------------|-------------------------------------|--------|
// | twitter-x     | none (280 fit whole)        | one alone shown whole from 3:4 to 16:9, else cut | its own shape, 1:3 to 3:1           | X help "posting photos"; observed; video: X media best practices (aspect ratio 1:3 to 3:1) |
// | instagram     | 125, or the 3rd line break  | 4:5 to 1.91:1 whole; profile grid crops to 3:4   | feed: as images; a reel: 9:16 (see post-extras.ts) | Instagram Help Center 1643471055915254 ("first three lines ... 125 characters or fewer"); Graph API image specs; feed video observed |
// | linkedin      | ~210 desktop (~140 mobile)  | 1.91:1 to 4:5 whole; taller is cut to 4:5        | 1:2.4 to 2.4:1 whole                | observed (posttruncate.com platform table); video: LinkedIn video specifications (aspect ratio 1:2.4 to 2.4:1) |
// | facebook-page | ~480 desktop (~110 mobile)  | up to 4:5 tall whole; taller is cut to 4:5       | as images                           | observed (posttruncate.com platform table) |
// | tiktok        | ~150                        | full screen 9:16                                 | full screen 9:16                    | observed (toolshake.xyz caption counter) |
// | youtube       | ~100 of the description     | player 16:9 (Shorts 9:16)                        | player 16:9 (Shorts 9:16)           | YouTube Help "video descriptions": the first lines show above "...more"; 100 chosen |
// | bluesky       | none (300 fit whole)        | whole image at its declared aspect ratio         | whole video at its aspect ratio     | AT Protocol app.bsky.embed.images and app.bsky.embed.video (aspectRatio) |
// | threads       | ~250 mobile (500 desktop)   | up to 4:5 tall whole in the feed                 | as images                           | observed (posttruncate.com platform table) |
// | pinterest     | ~100 of the description     | 2:3 whole; taller than 1:2.1 is cut off          | square or vertical (2:3, 9:16)      | Pinterest creative specifications (images and video) |
import type { Platform } from '../platforms.js';

export interface FoldRule {
  /** Characters (code points) shown before "more"; undefined when the whole text shows. */
  chars?: number;
  /** The feed also folds after this many lines. */
  lines?: number;
  /** What the feed shows of an image. */
  crop: string;
  /** How the feed frames a video (a value of a setting may frame it otherwise: an Instagram reel, post-extras.ts). */
  video: string;
  /** Whether the platform publishes thread parts (replies after the first). */
  threads: boolean;
  /** Where the numbers come from. */
  source: string;
}

export const FOLDS: Record<Platform, FoldRule> = {
  'twitter-x': { crop: 'shows whole from 3:4 to 16:9 when it is the only one; taller or wider is cut to that range', video: 'plays at its own shape from 1:3 to 3:1', threads: true, source: 'X help (posting photos); observed' },
  instagram: { chars: 125, lines: 3, crop: 'feed shows 4:5 to 1.91:1 whole; the profile grid crops to 3:4', video: 'feed shows 4:5 to 1.91:1 whole; taller is cut to 4:5', threads: false, source: 'Instagram Help Center: first three lines, 125 characters or fewer' },
  linkedin: { chars: 210, crop: '1.91:1 to 4:5 shows whole; taller is cut to 4:5', video: '1:2.4 to 2.4:1 shows whole', threads: false, source: 'observed: ~210 characters on desktop, ~140 on mobile' },
  'facebook-page': { chars: 480, crop: 'up to 4:5 tall shows whole; taller is cut to 4:5', video: 'up to 4:5 tall shows whole; taller is cut to 4:5', threads: false, source: 'observed: ~480 characters on desktop, ~110 on mobile' },
  tiktok: { chars: 150, crop: 'full screen 9:16', video: 'full screen 9:16', threads: false, source: 'observed: ~150 characters' },
  youtube: { chars: 100, crop: 'player 16:9 (Shorts 9:16)', video: 'player 16:9 (Shorts 9:16)', threads: false, source: 'YouTube Help: the first lines of the description show above "...more" (100 chosen)' },
  bluesky: { crop: 'the whole image at its aspect ratio', video: 'the whole video at its aspect ratio', threads: true, source: 'AT Protocol app.bsky.embed.images (aspectRatio)' },
  threads: { chars: 250, crop: 'up to 4:5 tall shows whole', video: 'up to 4:5 tall shows whole', threads: true, source: 'observed: ~250 characters on mobile, 500 on desktop' },
  pinterest: { chars: 100, crop: '2:3 shows whole; taller than 1:2.1 is cut off', video: 'square or vertical (2:3, 9:16) shows whole', threads: false, source: 'Pinterest creative specifications; description fold observed' },
};
