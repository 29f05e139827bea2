// Characters that change what a reader sees without being seen themselves, written as `\uXXXX`
// wherever our own words quote service text for a person (a page, a question put to the user):
// DEL and C1 (drawn as nothing or boxes), the bidirectional controls (U+061C, U+200E, U+200F,
// U+202A to U+202E, U+2066 to U+2069: "invoice\u202Egnp.exe" reads "invoiceexe.png") and the line
// and paragraph separators (U+2028, U+2029, a line break where none shows in the data). C0 is left to
// each caller: JSON escapes it already, and HTML keeps tab and line feed.
const HIDDEN = '\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

/** A character as the escape a person can read: `\u202e`. */
export const asEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A global pattern of the hidden characters, with `extra` (a character-class body) added. */
export const hiddenCharacters = (extra = ''): RegExp => new RegExp(`[${extra}${HIDDEN}]`, 'g');
