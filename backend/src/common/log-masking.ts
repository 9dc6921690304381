/**
 * What a log line must never carry (backend/README.md "Logs"): whoever reads the logs (an
 * operator, a log shipper, a leaked backup) must not be able to open a ticket, take a
 * waiting-list offer, read an order with its tickets or write to a buyer. Every line the
 * app logs passes through `maskSecrets`; nginx's access log masks the same paths with the
 * maps in nginx/templates/default.conf.template.
 */

export const TOKEN_MASK = '[token]';
export const EMAIL_MASK = '[email]';
export const CODE_MASK = '[code]';

// A path segment or query value ends at these (also where a URL ends inside free text).
const SEGMENT = String.raw`[^/?#&\s"'<>]+`;
const END = String.raw`(?=[/?#&\s"'<>]|$)`;

/** Paths whose next segment is a bearer secret: whoever has the URL has the thing. */
const SECRET_PATHS: RegExp[] = [
  // The ticket page and its API (the ticket, its PDF, wallet passes); not the two fixed names.
  new RegExp(String.raw`(/(?:api/)?tickets/)(?!(?:public-key|resend)${END})${SEGMENT}`, 'g'),
  // The waiting list's pages (/waitlist/offer/…) and its API (/api/waitlist/offers/…).
  new RegExp(String.raw`(/(?:api/)?waitlist/(?:offers?|confirm|unsubscribe)/)${SEGMENT}`, 'g'),
  // A reminder's unsubscribe link stops an address's reminders.
  new RegExp(String.raw`(/(?:api/)?reminders/unsubscribe/)${SEGMENT}`, 'g'),
  // An order's summary carries its tickets; the test provider's page pays it.
  new RegExp(String.raw`(/api/checkout/session/)${SEGMENT}`, 'g'),
  new RegExp(String.raw`(/api/checkout/test-provider/)(?!assets${END})${SEGMENT}`, 'g'),
];

/** Query parameters whose value is a token (the return from payment, a waiting-list offer). */
const TOKEN_PARAMS = new RegExp(
  String.raw`([?&](?:session_id|angebot|token|offer)=)[^&#\s"'<>]*`,
  'gi',
);
/** …and whose value is a password (a door code typed into a link, say). */
const CODE_PARAMS = new RegExp(
  String.raw`([?&](?:code|checkin_?code|door_?code|pin|password|passwort|secret|key|consumer_key|consumer_secret)=)[^&#\s"'<>]*`,
  'gi',
);

/** Payment session ids (Stripe's, the test provider's) wherever they stand. */
const SESSION_IDS = /\b(?:cs_(?:test|live)_[A-Za-z0-9]+|tps_[A-Za-z0-9_-]{8,})/g;

/** A door session (`door.…`) and the organizer's session cookie, wherever they stand. */
const SESSION_TOKENS =
  /\bdoor\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]+)*|(\bawhh_organizer=)[^;\s"'<>]+/g;

/** A signed ticket (compact JWS: base64url JSON header, payload, signature) anywhere. */
const SIGNED_TOKENS = /\beyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){1,2}/g;

/**
 * An e-mail address, also percent-encoded (`%40`) or form-encoded in a query string. The
 * local part stops at URL delimiters, so `?email=a@b.de` keeps its `email=`.
 */
const EMAILS =
  /[A-Za-z0-9.!#$%*+^_`{|}~-]+(?:@|%40)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*/g;

/**
 * Masks tokens, session ids, e-mail addresses and codes in a URL or any text that may hold
 * one (an error message, a rendered page's address): `/tickets/eyJ…` → `/tickets/[token]`.
 */
export function maskSecrets(text: string): string {
  let out = text;
  for (const path of SECRET_PATHS) out = out.replace(path, `$1${TOKEN_MASK}`);
  out = out
    .replace(TOKEN_PARAMS, `$1${TOKEN_MASK}`)
    .replace(CODE_PARAMS, `$1${CODE_MASK}`)
    .replace(SESSION_IDS, TOKEN_MASK)
    .replace(SESSION_TOKENS, (_, cookie: string | undefined) => `${cookie ?? ''}${TOKEN_MASK}`)
    .replace(SIGNED_TOKENS, TOKEN_MASK)
    .replace(EMAILS, EMAIL_MASK);
  return out;
}

/**
 * `maskSecrets` applied to every string of a log message (objects and arrays copied, at
 * most a few levels deep as log lines are). Errors stay errors: the logger masks them
 * once it has turned them into records.
 */
export function maskLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (value === null || typeof value !== 'object' || value instanceof Error || depth > 8) {
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => maskLogValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, maskLogValue(item, depth + 1)]),
  );
}
