// Loopback port helpers for tests that start servers. A listener's readiness is its own ready
// line (test/helpers/listen-ready.ts), not a port polled against a deadline.
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
