// A value as one word of a command line the user may paste into a POSIX shell.

/** Left bare when it holds only characters no shell treats specially; else single-quoted. */
export const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
