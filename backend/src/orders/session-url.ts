const SESSION_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

/** Stripe fills in the session id; the success page reads it (rules §2 /success). */
export function withSessionPlaceholder(url: string): string {
  if (url.includes(SESSION_PLACEHOLDER)) return url;
  return appendQuery(url, `session_id=${SESSION_PLACEHOLDER}`);
}

/** The success URL for a session the server itself completes (free orders, the test provider). */
export function withSessionId(url: string, sessionId: string): string {
  return withSessionPlaceholder(url).replace(SESSION_PLACEHOLDER, encodeURIComponent(sessionId));
}

function appendQuery(url: string, pair: string): string {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  return `${base}${base.includes('?') ? '&' : '?'}${pair}${fragment}`;
}
