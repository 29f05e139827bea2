// Colour decisions (colour only on a terminal, never on stdout data), in the order of COLOR_PRECEDENCE below.
export interface Colors {
  enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
  gray(s: string): string;
  /** A URL as a clickable link (OSC 8) where the terminal supports it; output fills it in. */
  link?(url: string, text?: string): string;
}

/** For `help environment`: how colour is decided, first rule that applies wins. */
export const COLOR_PRECEDENCE = `Colour is decided by the first rule that applies:
  1. --no-color                      off
  2. NO_COLOR set and not empty      off
  3. FORCE_COLOR                     on, unless it is 0 or false (then off)
     CLICOLOR_FORCE set, not 0       on, even when not on a terminal
  4. TERM=dumb or CLICOLOR=0         off
  5. otherwise                       on when the output is a terminal`;

const isSet = (v: string | undefined): v is string => v !== undefined && v !== '';

export function colorEnabled(options: { flag: boolean; env: Readonly<Record<string, string | undefined>>; isTTY: boolean }): boolean {
  if (!options.flag) return false;
  const { NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, CLICOLOR, TERM } = options.env;
  if (isSet(NO_COLOR)) return false;
  if (FORCE_COLOR !== undefined) return FORCE_COLOR !== '0' && FORCE_COLOR !== 'false';
  if (isSet(CLICOLOR_FORCE) && CLICOLOR_FORCE !== '0') return true;
  if (TERM === 'dumb' || CLICOLOR === '0') return false;
  return options.isTTY;
}

const identity = (s: string) => s;
export const plainColors: Colors = {
  enabled: false,
  bold: identity,
  dim: identity,
  red: identity,
  green: identity,
  yellow: identity,
  cyan: identity,
  magenta: identity,
  gray: identity,
};

/** One chalk instance at a fixed level; chalk is loaded only when colour is on. */
export async function loadColors(enabled: boolean): Promise<Colors> {
  if (!enabled) return plainColors;
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: 1 });
  return {
    enabled: true,
    bold: (s) => c.bold(s),
    dim: (s) => c.dim(s),
    red: (s) => c.red(s),
    green: (s) => c.green(s),
    yellow: (s) => c.yellow(s),
    cyan: (s) => c.cyan(s),
    magenta: (s) => c.magenta(s),
    gray: (s) => c.gray(s),
  };
}
