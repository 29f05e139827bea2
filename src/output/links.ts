// OSC 8 hyperlinks: clickable live URLs on terminals that support them. Our own ~20 lines rather
// than supports-hyperlinks/terminal-link: those read process.env and process.argv themselves and
// pull in supports-color and has-flag, while we decide from an injected environment (testable,
// and the same rules for stdout and stderr) and load nothing at start-up.
//
// Rules, first match wins: FORCE_HYPERLINK=0/1 decides; not a terminal, TERM=dumb or CI: no;
// inside tmux or screen: no (they pass OSC 8 through only when configured to); terminals known
// to render OSC 8: yes; anything else: no (an unsupported terminal would print the URL twice or
// garbage, while a plain URL is still copyable).
type Env = Readonly<Record<string, string | undefined>>;

export function supportsHyperlinks(options: { env: Env; isTTY: boolean }): boolean {
  const { env } = options;
  const force = env.FORCE_HYPERLINK;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (!options.isTTY || env.TERM === 'dumb' || isSet(env.CI)) return false;
  if (isSet(env.TMUX) || env.TERM?.startsWith('screen')) return false;
  if (isSet(env.WT_SESSION) || isSet(env.KONSOLE_VERSION) || isSet(env.KITTY_WINDOW_ID) || isSet(env.WEZTERM_EXECUTABLE)) return true;
  if (Number(env.VTE_VERSION ?? 0) >= 5000) return true; // GNOME Terminal, Tilix and other VTE terminals since 0.50
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app':
      return versionAtLeast(env.TERM_PROGRAM_VERSION, [3, 1]);
    case 'vscode':
      return versionAtLeast(env.TERM_PROGRAM_VERSION, [1, 72]);
    case 'WezTerm':
    case 'ghostty':
    case 'Hyper':
      return true;
  }
  return ['xterm-kitty', 'alacritty', 'foot', 'xterm-ghostty', 'wezterm'].includes(env.TERM ?? '');
}

function isSet(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}

function versionAtLeast(version: string | undefined, min: [number, number]): boolean {
  const [major = 0, minor = 0] = (version ?? '').split('.').map(Number);
  return major > min[0] || (major === min[0] && minor >= min[1]);
}

/**
 * The text as a link to `url` when `enabled` (its width is the text's: the escape sequences take
 * none), else the text alone. Control characters are removed from both, so data cannot end the
 * sequence early and write to the terminal.
 */
export function hyperlink(url: string, text: string = url, enabled = true): string {
  const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  if (!enabled) return clean(text);
  return `\u001b]8;;${clean(url)}\u0007${clean(text)}\u001b]8;;\u0007`;
}
