import type { FastifyInstance } from 'fastify';

/** How long and how much of a refused body is still read before the socket closes. */
export const LINGER_MS = 5_000;
export const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * A request refused before its body was read (413, a body Fastify could not parse) gets
 * `connection: close` from Fastify, and the socket closes with the rest of the body unread.
 * The kernel then resets the connection, and a client still sending sees the reset instead
 * of the JSON answer. Like nginx's lingering close (in front in production, see
 * docs/architecture.md): the rest is read and dropped, within a time and a size, and the
 * connection stays usable; past either limit it closes as before.
 */
export function registerLingeringClose(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const req = request.raw;
    if (
      reply.getHeader('connection') !== 'close' ||
      req.complete ||
      req.readableEnded ||
      req.destroyed
    ) {
      done(null, payload);
      return;
    }
    reply.removeHeader('connection');
    let read = 0;
    // Destroying the request closes its socket (and works for `app.inject`, which has none).
    const close = () => req.destroy();
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) close();
    });
    req.once('end', () => clearTimeout(timer));
    req.once('close', () => clearTimeout(timer));
    req.resume();
    done(null, payload);
  });
}
