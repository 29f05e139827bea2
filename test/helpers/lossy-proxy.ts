// A proxy in front of a sandbox that loses answers: the request reaches the service and does its
// work, then the client's connection is cut before the answer (a "lost response"). Which requests
// lose their answer is up to the test. It listens on 127.0.0.1, port 0.
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LossyProxy {
  url: string;
  /** How many answers were lost so far. */
  readonly lost: number;
  close(): Promise<void>;
}

export async function lossyProxy(target: string, loseAnswer: (req: IncomingMessage, seen: number) => boolean): Promise<LossyProxy> {
  const upstream = new URL(target);
  let seen = 0;
  let lost = 0;
  const server = createServer((req, res) => {
    const lose = loseAnswer(req, seen++);
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        if (lose) {
          lost++;
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => req.socket.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get lost() {
      return lost;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
