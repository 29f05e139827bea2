// Loopback port helpers for tests that start servers in child processes.
import net from 'node:net';

/** A port that was free a moment ago (the OS picks it; the caller binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port (about 2 s at most). */
export async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.on('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`nothing listening on ${port}`);
}
