// The command line's and bulk files' words for what a post carries beyond text and media:
// `--alt` (for the `--media` before it) and `--option PLATFORM.KEY=VALUE`, turned into the
// payload's fields. Values are read as each setting's kind says (true/false, a list of tags, one
// of the values, in any case); what is wrong is named with what is allowed, before any request.
import { isPlatform, type Platform } from '../wire/platforms.js';
import { allowedText, optionSpec, PLATFORM_EXTRAS, type OptionSpec } from '../wire/post-extras.js';
import { didYouMean, suggestPlatform } from '../wire/suggest.js';
import { PLATFORMS } from '../wire/platforms.js';
import type { InputIssue as Issue } from '../wire/invalid-input.js';
import type { AltFlag, FlagLabels, MediaSource } from './draft.js';

/** Sets each alt text on the media item it follows; one before any --media is an issue. */
export function applyAlts(alts: readonly AltFlag[], media: MediaSource[], issues: Issue[], labels: FlagLabels): void {
  for (const a of alts) {
    const m = media[a.index];
    if (!m) {
      // A tool's alt list and a bulk file's alt column pair with the media by position; the
      // command line's --alt follows its --media.
      if (labels.alt) {
        const field = labels.alt('', a.index);
        issues.push({ field, message: `${field}: there is no media item ${a.index + 1} for it to describe (${media.length} given)`, fix: labels.altFix ?? 'give one alt text per media item, in the order of the media ("" for none)' });
      } else issues.push({ field: '--alt', message: `--alt: "${a.text}" follows no media item`, fix: 'put --alt right after the --media it describes: --media photo.jpg --alt "A red bicycle"' });
      continue;
    }
    if (m.alt !== undefined) {
      const field = labels.alt ? labels.alt(m.source, a.index) : `--alt (for --media ${m.source})`;
      issues.push({ field, message: `${field}: ${m.source} already has alt text`, fix: 'give one --alt after each --media' });
      continue;
    }
    m.alt = a.text;
  }
}

/** The fields are the command line's flags (`--platform`), not a tool's argument names (`platforms`). */
const flagNamed = (labels: FlagLabels) => labels.platform.startsWith('--');

/** The options of each platform from PLATFORM.KEY=VALUE values; the problems in `issues`. */
export function parseOptionFlags(values: readonly string[], targets: readonly string[], issues: Issue[], labels: FlagLabels): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const label = (p: string, k: string) => (labels.option ? labels.option(p, k) : `--option ${p}.${k}`);
  for (const raw of values) {
    const m = /^\s*([^.=\s]+)\.([^=\s]+)\s*=(.*)$/s.exec(raw);
    if (!m) {
      const field = labels.option ? labels.option('', '') : '--option';
      issues.push({ field, message: `${field}: "${raw}" is not PLATFORM.KEY=VALUE`, fix: flagNamed(labels) ? 'write it as --option youtube.privacy=unlisted' : 'write it as "youtube.privacy=unlisted"' });
      continue;
    }
    const [, platform, key, value] = m as unknown as [string, string, string, string];
    if (!isPlatform(platform)) {
      const field = label(platform, key);
      issues.push({ field, message: `${field}: "${platform}" is not a platform id`, fix: didYouMean(suggestPlatform(platform), PLATFORMS) });
      continue;
    }
    if (!targets.includes(platform)) {
      const field = label(platform, key);
      const fix = labels.offTargetOptionFix?.(platform, key) ?? (flagNamed(labels) ? `add it with ${labels.platform} ${platform}, or drop the option` : `add ${platform} to ${labels.platform}, or drop the option`);
      issues.push({ field, message: `${field}: ${platform} is not among the targets (${targets.join(', ') || 'none'})`, fix });
      continue;
    }
    const spec = optionSpec(platform, key);
    const options = out.get(platform) ?? {};
    out.set(platform, options);
    // An unknown key is kept as given: the shared judge names it with the keys there are.
    options[key] = spec ? readValue(spec, value) : value;
  }
  return out;
}

/** A value as the setting's kind reads it; one that cannot be read stays a string (and is judged). */
export function readValue(spec: OptionSpec, value: string): unknown {
  const v = value.trim();
  switch (spec.kind) {
    case 'boolean': {
      const lower = v.toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(lower)) return true;
      if (['false', 'no', 'off', '0'].includes(lower)) return false;
      return v;
    }
    case 'enum':
      // In any case: "unlisted", "UNLISTED", "self_only" all name the value.
      return spec.values.find((x) => x.toLowerCase() === v.toLowerCase()) ?? v;
    case 'tags':
      return v
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
    case 'string':
      return v;
  }
}

/** "postType=feed|reel|story", … : what completion and help offer for a platform. */
export function optionHelp(platform: Platform): string[] {
  return PLATFORM_EXTRAS[platform].options.map((o) => `${platform}.${o.key} (${allowedText(o)})`);
}

/** Settings given as typed values ({ youtube: { tags: ["a"], madeForKids: false } }) as PLATFORM.KEY=VALUE, read again by each setting's kind. */
export function optionStrings(options: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>): string[] {
  return Object.entries(options).flatMap(([p, o]) => Object.entries(o ?? {}).map(([k, v]) => `${p}.${k}=${Array.isArray(v) ? v.join(',') : String(v)}`));
}
