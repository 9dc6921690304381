import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A response body serialised once per catalog generation, with its ETag. */
export interface CachedBody {
  body: string;
  etag: string;
}

/**
 * Serialised and hashed once per catalog generation, then served from memory. Not
 * @fastify/etag: it hashes every response body on every request, on the hottest path.
 */
export function cachedBody(value: unknown): CachedBody {
  const body = JSON.stringify(value);
  // Weak: a compressing proxy may change the bytes but not the meaning.
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, etag };
}

/** RFC 9110 weak comparison; "*" matches any current representation. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === opaque);
}

/**
 * Sends a catalog response with ETag and Cache-Control, or 304 when the client has it.
 * Browsers and nginx may reuse it briefly; the API's own cache does the heavy lifting.
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedBody,
  maxAgeSeconds: number,
): FastifyReply {
  reply.header('etag', cached.etag);
  reply.header(
    'cache-control',
    `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${Math.max(maxAgeSeconds, 60)}`,
  );
  if (matchesEtag(request.headers['if-none-match'], cached.etag)) {
    return reply.status(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(cached.body);
}
