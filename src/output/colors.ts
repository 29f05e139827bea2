// Colour decisions (DESIGN habit 2): NO_COLOR and --no-color switch it off, FORCE_COLOR on,
// otherwise colour only when the stream is a terminal.
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
}

export function colorEnabled(options: { flag: boolean; env: Readonly<Record<string, string | undefined>>; isTTY: boolean }): boolean {
  if (!options.flag) return false;
  const { NO_COLOR, FORCE_COLOR } = options.env;
  if (NO_COLOR !== undefined && NO_COLOR !== '') return false;
  if (FORCE_COLOR !== undefined) return FORCE_COLOR !== '0' && FORCE_COLOR !== 'false';
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
