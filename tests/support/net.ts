import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');

function tryListen(port: number): Promise<ReturnType<typeof createServer> | null> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(null));
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

/**
 * `count` distinct free TCP ports on loopback. They are picked below Linux's ephemeral
 * range (32768+), where the OS also hands out the source ports of outgoing connections:
 * a port chosen there can be taken by a client socket before the server binds it.
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: ReturnType<typeof createServer>[] = [];
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (ports.includes(port)) continue;
    const server = await tryListen(port);
    if (server) {
      held.push(server);
      ports.push(port);
    }
  }
  await Promise.all(held.map((server) => new Promise((r) => server.close(r))));
  return ports;
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = new Error(`${url} answered ${res.status}`);
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up: ${String(last)}`);
}
