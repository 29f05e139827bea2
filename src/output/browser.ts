// `--web`: opens a URL with the user's browser command (SOCIALPUB_BROWSER, then BROWSER). No
// shell: the command is split on spaces and the URL is one argument (in place of a `%s`, else
// last), so nothing in a URL can run. The terminal is shared, so text browsers (w3m, lynx) work,
// and we wait for the command to finish.
import { childEnv } from './child-env.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The browser command, or undefined when none is set. */
export function browserCommand(env: Env): string[] | undefined {
  const raw = [env.SOCIALPUB_BROWSER, env.BROWSER].find((v) => v !== undefined && v.trim() !== '');
  return raw?.trim().split(/\s+/);
}

/**
 * Opens `url` (http or https; a file: URL with `ownFile`); true when the browser command ran and succeeded, false when
 * there is none or it failed to start or failed, in which case the command prints the URL.
 */
export function openInBrowser(options: { env: Env; url: string; ownFile?: boolean }): Promise<boolean> {
  const command = browserCommand(options.env);
  // A URL with control characters (a server's escape sequences) is not handed to a browser; a
  // file: URL only when the caller wrote that file itself (a preview page), never a server's.
  const scheme = options.ownFile ? /^file:\/\/[^\u0000-\u001f\u007f-\u009f]+$/i : /^https?:\/\/[^\u0000-\u001f\u007f-\u009f]+$/i;
  if (!command || !scheme.test(options.url)) return Promise.resolve(false);
  const hasPlaceholder = command.some((a) => a.includes('%s'));
  const args = hasPlaceholder ? command.slice(1).map((a) => a.replaceAll('%s', options.url)) : [...command.slice(1), options.url];
  return new Promise((resolve) => {
    // Loaded here, not imported: child_process costs start-up time that most runs never use.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(command[0]!, args, { stdio: 'inherit', shell: false, env: childEnv(options.env) });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}
