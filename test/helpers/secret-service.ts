// A real Secret Service for tests: a private D-Bus session bus (its own config, so nothing is
// started by bus activation behind our back) and gnome-keyring-daemon unlocked with a password
// on stdin, both in a temporary HOME and runtime folder and stopped by their pids. Machines
// without the Debian packages (dbus, gnome-keyring, libsecret-tools) get a reason instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type SecretService =
  | {
      ok: true;
      /** What a process needs to reach this Secret Service. */
      env: Record<string, string>;
      /** The secret stored under these attributes, read with libsecret's own tool. */
      lookup(attributes: Record<string, string>): string | undefined;
      close(): Promise<void>;
    }
  | { ok: false; reason: string };

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

export async function startSecretService(): Promise<SecretService> {
  if (process.platform !== 'linux') return { ok: false, reason: 'the Secret Service is a Linux (freedesktop) service' };
  const missing = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'].filter((t) => !has(t));
  if (missing.length) return { ok: false, reason: `not installed: ${missing.join(', ')} (apt-get install gnome-keyring dbus-x11 libsecret-tools)` };

  const root = mkdtempSync(join(tmpdir(), 'socialpub-secrets-'));
  const [home, runtime] = [join(root, 'home'), join(root, 'run')];
  mkdirSync(home);
  mkdirSync(runtime);
  chmodSync(runtime, 0o700);
  const config = join(root, 'bus.conf');
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=${root}</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
  );
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) {
      if (child.exitCode === null && child.pid) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const bus = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(bus);
    const address = await firstLine(bus);
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_RUNTIME_DIR: runtime, DBUS_SESSION_BUS_ADDRESS: address };
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    children.push(keyring);
    keyring.stdin.end('socialpub-test-password');
    // The daemon owns org.freedesktop.secrets once it is ready; a few tries, then give up.
    for (let i = 0; ; i++) {
      const owned = spawnSync('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets'], { env, encoding: 'utf8' });
      if (/boolean true/.test(owned.stdout ?? '')) break;
      if (i >= 50 || keyring.exitCode !== null) throw new Error('gnome-keyring-daemon did not take the org.freedesktop.secrets name');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      ok: true,
      env,
      lookup(attributes) {
        const r = spawnSync('secret-tool', ['lookup', ...Object.entries(attributes).flat()], { env, encoding: 'utf8' });
        return r.status === 0 && r.stdout !== '' ? r.stdout : undefined;
      },
      close: stop,
    };
  } catch (err) {
    await stop();
    return { ok: false, reason: `could not start a Secret Service: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const nl = text.indexOf('\n');
      if (nl >= 0) resolve(text.slice(0, nl).trim());
    });
    child.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code}) before printing its address`)));
    child.once('error', reject);
  });
}
