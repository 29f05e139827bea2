// DNS-rebinding guard: a web page on evil.example can resolve its own name to 127.0.0.1 and
// make the browser POST to the listener; the browser still sends `Host: evil.example`. On a
// loopback bind only the loopback names (with the bound port) are accepted.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK_HOSTS.has(h) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '0:0:0:0:0:0:0:1';
}

/**
 * Returns a predicate for Host headers. For a loopback bind: 127.0.0.1:port, localhost:port
 * and [::1]:port (the port may be left out only when it is 80). For any other bind the user
 * chose to be reachable by other names, so every Host is accepted.
 */
export function hostGuard(boundHost: string, port: number): (hostHeader: string | undefined) => boolean {
  if (!isLoopbackHost(boundHost)) return () => true;
  const allowed = new Set<string>();
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  const bound = boundHost.toLowerCase();
  if (/^127\./.test(bound) && bound !== '127.0.0.1') names.push(bound);
  for (const name of names) {
    allowed.add(`${name}:${port}`);
    if (port === 80) allowed.add(name);
  }
  return (hostHeader) => hostHeader !== undefined && (allowed.has(hostHeader) || allowed.has(hostHeader.toLowerCase()));
}
