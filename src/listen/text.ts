// Reading request headers, and echoing what a client sent in a reason safely.
import type { IncomingMessage } from 'node:http';

/** Header values echoed in reasons: one line, printable, short. */
export function oneLine(value: string, max = 80): string {
  const clean = value.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > max ? clean.slice(0, max) + '…' : clean;
}

/** A header as one string (repeated headers joined), or undefined. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(' ') : v;
}

/** host:port for a URL, with IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
