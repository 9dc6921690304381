import { connect, type AddressInfo, type Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import { LINGER_MS } from '../../src/common/lingering-close.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BODY_LIMIT_BYTES } from '../../src/app.factory.js';
import { createTestApp } from '../support/test-app.js';

beforeAll(() => Logger.overrideLogger(false));

/** Collects what the server sends; resolves once `done(text)` says an answer is complete. */
function reader(socket: Socket) {
  // Latin-1 keeps one character per byte, so lengths compare with content-length.
  let text = '';
  let waiting: { done: (t: string) => boolean; resolve: (t: string) => void } | null = null;
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    if (waiting?.done(text)) waiting.resolve(text);
  });
  return {
    until: (done: (t: string) => boolean) =>
      new Promise<string>((resolve, reject) => {
        if (done(text)) return resolve(text);
        waiting = { done, resolve };
        socket.once('error', reject);
        socket.once('close', () => reject(new Error(`Verbindung geschlossen nach: ${text}`)));
      }),
    reset: () => {
      text = '';
    },
  };
}

const complete = (t: string) => {
  const m = /content-length: (\d+)/i.exec(t);
  const end = t.indexOf('\r\n\r\n');
  return m !== null && end >= 0 && t.length >= end + 4 + Number(m[1]);
};

const write = (socket: Socket, data: string | Buffer) =>
  new Promise<void>((resolve, reject) => socket.write(data, (e) => (e ? reject(e) : resolve())));

describe('a refused body is read to its end, not reset (lingering close)', () => {
  let app: NestFastifyApplication;
  let port: number;
  beforeAll(async () => {
    app = await createTestApp();
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('answers 413 JSON and takes the rest of a 3 MB body; the connection stays usable', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const answers = reader(socket);
    const size = 3 * 1024 * 1024;
    expect(size).toBeGreaterThan(BODY_LIMIT_BYTES);
    await write(
      socket,
      `POST /api/coupons/validate HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`,
    );
    // The answer comes from the declared length, before any of the body is sent.
    const refused = await answers.until(complete);
    expect(refused).toMatch(/^HTTP\/1\.1 413 /);
    expect(refused).not.toMatch(/connection: close/i);
    const json = Buffer.from(refused.slice(refused.indexOf('\r\n\r\n') + 4), 'latin1');
    expect(JSON.parse(json.toString('utf8'))).toMatchObject({
      statusCode: 413,
      message: 'Der Inhalt der Anfrage ist zu groß.',
    });
    // Without the lingering close the socket is gone by now and these writes are reset.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    for (let sent = 0; sent < size; sent += chunk.length) {
      await write(socket, chunk.subarray(0, Math.min(chunk.length, size - sent)));
    }
    answers.reset();
    const body = '{"code":"AFTERWORK10","subtotal":5000}';
    await write(
      socket,
      `POST /api/coupons/validate HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    const next = await answers.until(complete);
    expect(next).toMatch(/^HTTP\/1\.1 (200|404) /);
    socket.destroy();
  });
});

describe('lingering close without a socket (app.inject)', () => {
  it('does not wait for a body that was read already (an injected request)', async () => {
    const app = await createTestApp();
    const res = await app.inject({
      method: 'POST',
      url: '/api/coupons/validate',
      headers: { 'content-type': 'application/json' },
      // Read to its end, then refused: Fastify asks to close the connection all the same.
      payload: '{"code": "AFTERWORK10",',
    });
    expect(res.statusCode).toBe(400);
    // Past the longest wait: a timer that threw would fail this test as an uncaught exception.
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS + 500));
    await app.close();
  }, 15_000);
});
