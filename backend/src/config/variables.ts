import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { codeWeakness, MIN_CODE_LENGTH } from './code-strength.js';

// The rule of each environment variable, as a schema over its trimmed text (undefined when
// unset) with its default. The messages are the `problem` of a ConfigError, which names the
// variable: they stay word for word, as operators, the deploy docs and the tests know them.

/** A variable as the environment gives it: trimmed, and unset when empty (compose's `VAR=`). */
export function variable<T>(schema: z.ZodType<T, string | undefined>) {
  return z
    .string()
    .optional()
    .transform((raw) => raw?.trim() || undefined)
    .pipe(schema);
}

/** Any text, or unset. */
export const text = z.string().optional();

/** Unset: null, which stands for the embedded default. */
function orNull<T>(schema: z.ZodType<T, string>) {
  return schema.optional().transform((value) => value ?? null);
}

function isWholeNumber(raw: string, min: number, max: number) {
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max;
}

export function wholeNumber(fallback: number, min: number, max: number) {
  return z
    .string()
    .refine((raw) => isWholeNumber(raw, min, max), {
      error: (issue) =>
        `must be a whole number from ${min} to ${max} (got "${String(issue.input)}")`,
    })
    .transform(Number)
    .default(fallback);
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const listed = `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
  return z.enum(values, { error: (issue) => `must be ${listed} (got "${String(issue.input)}")` });
}

/** An absolute http(s) URL, kept as origin and path without the trailing slash. */
export const httpUrl = z
  .string()
  .refine((raw) => URL.canParse(raw), {
    error: (issue) => `must be an absolute http(s) URL (got "${String(issue.input)}")`,
    abort: true,
  })
  .transform((raw) => new URL(raw))
  .refine((url) => url.protocol === 'http:' || url.protocol === 'https:', {
    error: (issue) => `must use http or https (got "${(issue.input as URL).protocol}")`,
  })
  .transform((url) => url.origin + url.pathname.replace(/\/+$/, ''));

export const modules = oneOf(['products', 'checkout', 'all']).default('all');

export const logLevel = oneOf(['debug', 'info', 'warn', 'error']).default('info');

/** The built frontend `npm start` serves; "off" when nginx serves it. */
export const staticDir = z
  .string()
  .default('frontend/dist')
  .transform((dir) => (dir === 'off' ? null : resolve(dir)));

// No proxy unless named: trusting X-Forwarded-For from a peer that is no proxy lets any
// client pick its address, and with it a fresh rate limit and door lockout per request.
export const trustProxy = z
  .string()
  .default('false')
  .transform((raw) => (raw === 'true' ? true : raw === 'false' ? false : raw));

/**
 * METRICS_PORT: the port of the process's Prometheus metrics, default 9464; "0" or "off":
 * none (null). `npm run stack` gives checkout the next port (docs/operations.md "Metriken").
 */
export const metricsPort = z
  .string()
  .refine((raw) => raw === 'off' || isWholeNumber(raw, 0, 65535), {
    error: (issue) =>
      `must be a port from 1 to 65535, or 0 or off for none (got "${String(issue.input)}")`,
  })
  .transform((raw) => (raw === 'off' || raw === '0' ? null : Number(raw)))
  .default(9464);

/** `postgres://…`, or `sqlite:<file>` (`sqlite::memory:` for tests). */
export const databaseUrl = z
  .string()
  .transform((value, ctx) => {
    if (value.startsWith('postgres://') || value.startsWith('postgresql://')) {
      // Never echoed: the URL may hold the password.
      if (!URL.canParse(value)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'is not a valid URL (a password with characters such as / + @ : belongs in DATABASE_PASSWORD, or percent-encoded in the URL)',
        });
        return z.NEVER;
      }
      return { kind: 'postgres' as const, url: value, password: null as string | null };
    }
    if (!value.startsWith('sqlite:')) {
      ctx.addIssue({
        code: 'custom',
        message: `must start with postgres:// or sqlite: (got "${value}")`,
      });
      return z.NEVER;
    }
    const path = value.slice('sqlite:'.length);
    if (path === '') {
      ctx.addIssue({ code: 'custom', message: 'needs a file after "sqlite:"' });
      return z.NEVER;
    }
    return { kind: 'sqlite' as const, path: path === ':memory:' ? path : resolve(path) };
  })
  .prefault('sqlite:./data/awhh.db');

/**
 * DATABASE_PASSWORD: the PostgreSQL password beside a DATABASE_URL without one, taken as
 * given (any characters; docker-compose.yml passes POSTGRES_PASSWORD this way, so no URL
 * has to carry it encoded).
 */
export const databasePassword = z
  .string()
  .optional()
  .transform((raw) => (raw === undefined || raw === '' ? null : raw));

export const stripeSecretKey = z
  .string()
  .regex(/^(sk|rk)_(test|live)_/, { error: 'must be a Stripe secret key (sk_… or rk_…)' })
  .optional();

export const paymentProvider = oneOf(['stripe', 'test']).optional();

export const DEFAULT_MAIL_FROM = 'After Work Hamburg <tickets@localhost>';

/**
 * SMTP_URL: smtp:// or smtps:// with a host; the password never appears in the error. The
 * only query parameter is `tls=off` (smtp:// to a server without STARTTLS, see
 * `smtpTransportOptions`): nodemailer would let any other one override the TLS options.
 */
export const smtpUrl = orNull(
  z
    .string()
    .refine((raw) => URL.canParse(raw), {
      error: 'must be a URL like smtp://user:pass@host:587',
      abort: true,
    })
    .superRefine((raw, ctx) => {
      const url = new URL(raw);
      const params = [...url.searchParams];
      const problem =
        url.protocol !== 'smtp:' && url.protocol !== 'smtps:'
          ? `must start with smtp:// or smtps:// (got "${url.protocol}")`
          : !url.hostname
            ? 'needs a host (smtp://host:587)'
            : params.some(([name, value]) => name !== 'tls' || value !== 'off')
              ? 'accepts no query parameter but "?tls=off" (smtp:// without STARTTLS, for a server on the same host or network only)'
              : params.length > 0 && url.protocol === 'smtps:'
                ? 'cannot turn TLS off for smtps:// (use smtp://…?tls=off)'
                : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
);

/** MAIL_FROM: an address, optionally with a display name ("After Work Hamburg <tickets@…>"). */
export const mailFrom = z
  .string()
  .refine((value) => /^[^@\s<>]+@[^@\s<>]+$/.test(/<([^<>\s]+)>\s*$/.exec(value)?.[1] ?? value), {
    error: (issue) =>
      `must be an e-mail address, optionally "Name <address>" (got "${String(issue.input)}")`,
  })
  .default(DEFAULT_MAIL_FROM);

/**
 * ORGANIZER_EMAIL: where the site tells the organizer what needs a hand (a hand-off the
 * shop refused, rules "Hand-off refused"); unset: a warning in the log instead.
 */
export const organizerEmail = orNull(
  z.string().regex(/^[^@\s<>]+@[^@\s<>]+$/, { error: 'must be an e-mail address' }),
);

/** TICKET_SIGNING_KEY: an Ed25519 private key, PKCS#8 PEM (literal \n accepted, as .env files write it). */
export const ticketSigningKey = orNull(
  z
    .string()
    .transform((raw, ctx) => {
      try {
        return createPrivateKey({ key: raw.replace(/\\n/g, '\n'), format: 'pem' });
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)',
        });
        return z.NEVER;
      }
    })
    .refine((key) => key.asymmetricKeyType === 'ed25519', {
      error: (issue) =>
        `must be an Ed25519 key (got ${(issue.input as KeyObject).asymmetricKeyType ?? 'an unknown type'})`,
    }),
);

/** Shortest door code accepted (as the door compares it: no spaces or dashes, any case). */
export const MIN_CHECKIN_CODE_LENGTH = MIN_CODE_LENGTH;

/** A configured code that `codeWeakness` accepts; the value never appears in the error. */
function strongCode(cli: string) {
  return z.string().superRefine((raw, ctx) => {
    const weakness = codeWeakness(raw);
    if (weakness) ctx.addIssue({ code: 'custom', message: `${weakness} (make one with: ${cli})` });
  });
}

/**
 * CHECKIN_CODE: the door staff's shared code. The lockout stops one address after a few
 * wrong codes, but addresses are many, so the code itself must make guessing hopeless
 * ("EINLASS-2026" is a word and a year; `code-strength.ts` says what passes).
 */
export const checkinCode = orNull(strongCode('npm run door-code -- --new'));

/** Longest an offer may hold places: a month, far beyond any sensible setting. */
export const MAX_WAITLIST_OFFER_HOURS = 720;

/**
 * WAITLIST_OFFER_HOURS: hours, fractions allowed ("0.5" for half an hour), more than 0 and
 * at most a month. German and English in one message: the organizer may read it too.
 */
export const waitlistOfferHours = z
  .string()
  .refine(
    (raw) =>
      /^\d+(\.\d+)?$/.test(raw) && Number(raw) > 0 && Number(raw) <= MAX_WAITLIST_OFFER_HOURS,
    {
      error: (issue) =>
        `must be a number of hours above 0 and at most ${MAX_WAITLIST_OFFER_HOURS} (got "${String(issue.input)}") / muss eine Stundenzahl über 0 und höchstens ${MAX_WAITLIST_OFFER_HOURS} sein`,
    },
  )
  .transform(Number)
  .default(24);

/**
 * TICKET_TRANSFER_UNTIL_HOURS: how many hours before the start a ticket can still be passed
 * on (rules "Named tickets"); 0 up to the start itself, fractions allowed, at most a month.
 */
/** Hours before an event's start, 0 (up to the start) to a month, fractions allowed. */
function hoursBeforeStart(fallback: number) {
  return z
    .string()
    .refine((raw) => /^\d+(\.\d+)?$/.test(raw) && Number(raw) <= MAX_WAITLIST_OFFER_HOURS, {
      error: (issue) =>
        `must be a number of hours from 0 to ${MAX_WAITLIST_OFFER_HOURS} (got "${String(issue.input)}") / muss eine Stundenzahl von 0 bis ${MAX_WAITLIST_OFFER_HOURS} sein`,
    })
    .transform(Number)
    .default(fallback);
}

export const ticketTransferUntilHours = hoursBeforeStart(2);

/**
 * SHOP_RESTOCK: whether the site puts the places of an order refunded or trashed in the shop
 * back into the shop's stock, which WooCommerce itself does not (docs/ledger.md): `on` (the
 * default) or `off`.
 */
export const shopRestock = z
  .enum(['on', 'off'], {
    error: (issue) => `must be on or off (got "${String(issue.input)}") / muss on oder off sein`,
  })
  .default('on');

/**
 * TICKET_RETURNS: whether a guest can give a ticket back to the waiting list of a sold-out
 * evening (rules "Giving a ticket back"): `waitlist` (the default) or `off`.
 */
export const ticketReturns = z
  .enum(['waitlist', 'off'], {
    error: (issue) =>
      `must be waitlist or off (got "${String(issue.input)}") / muss waitlist oder off sein`,
  })
  .default('waitlist');

/**
 * TICKET_RETURN_UNTIL_HOURS: how many hours before the start a ticket can be given back and
 * its place bought from the waiting list (rules "Giving a ticket back"); default 24.
 */
export const ticketReturnUntilHours = hoursBeforeStart(24);

/**
 * TICKET_RETURN_FEE_EUR: what a ticket given back keeps of its price, in euros with up to
 * two decimals (rules "Giving a ticket back"); default 0.
 */
export const ticketReturnFeeEur = z
  .string()
  .refine((raw) => /^\d{1,4}([.,]\d{1,2})?$/.test(raw.trim()), {
    error: (issue) =>
      `must be an amount in euros such as 0 or 2.50 (got "${String(issue.input)}") / muss ein Betrag in Euro wie 0 oder 2,50 sein`,
  })
  .transform((raw) => Math.round(Number(raw.trim().replace(',', '.')) * 100))
  .default(0);

/**
 * REMINDER_HOURS_BEFORE: how many hours before an event's start its holders get the reminder
 * (rules "Reminders"); more than 0, fractions allowed, at most a month. Default 24.
 */
export const reminderHoursBefore = z
  .string()
  .refine(
    (raw) =>
      /^\d+(\.\d+)?$/.test(raw) && Number(raw) > 0 && Number(raw) <= MAX_WAITLIST_OFFER_HOURS,
    {
      error: (issue) =>
        `must be a number of hours above 0 and at most ${MAX_WAITLIST_OFFER_HOURS} (got "${String(issue.input)}") / muss eine Stundenzahl über 0 und höchstens ${MAX_WAITLIST_OFFER_HOURS} sein`,
    },
  )
  .transform(Number)
  .default(24);

/**
 * ORGANIZER_CODE: the organizer's code for /veranstalter on a site without WooCommerce (the
 * demo shop; rules "The organizer"). It opens sales and revenue, so like the door code it
 * must make guessing hopeless (`code-strength.ts`).
 */
export const organizerCode = orNull(strongCode('npm run organizer-code -- --new'));

/**
 * The wallet's keys and certificates (APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT,
 * GOOGLE_WALLET_SERVICE_ACCOUNT): the text itself (literal \n accepted, as .env files write
 * it) or the path of a file holding it, as a mounted secret is.
 */
function textOrFile(looksLikeText: (raw: string) => boolean, what: string, pem = true) {
  return z.string().transform((raw, ctx) => {
    // JSON keeps its own "\n" escapes; PEM text in one .env line has them for its newlines.
    if (looksLikeText(raw)) return pem ? raw.replace(/\\n/g, '\n') : raw;
    try {
      return readFileSync(resolve(raw), 'utf8');
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `must be ${what} or the path of a readable file holding it (cannot read "${raw}")`,
      });
      return z.NEVER;
    }
  });
}

const pemText = textOrFile((raw) => raw.startsWith('-----BEGIN '), 'PEM text (-----BEGIN …)');

/** A certificate in PEM (APPLE_PASS_CERT, APPLE_WWDR_CERT), checked here; kept as its PEM. */
export const pemCertificate = pemText.refine(
  (pem) => {
    try {
      new X509Certificate(pem);
      return true;
    } catch {
      return false;
    }
  },
  { error: 'must be a PEM certificate (-----BEGIN CERTIFICATE-----), as text or a file path' },
);

/** A private key in PEM (APPLE_PASS_KEY); read with its passphrase where the two meet. */
export const pemPrivateKey = pemText;

/** APPLE_PASS_TYPE_ID: the pass type identifier registered with Apple. */
export const applePassTypeId = z.string().regex(/^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, {
  error: 'must be a pass type identifier like pass.de.afterwork-hamburg.ticket',
});

/** APPLE_TEAM_ID: the Apple developer team, ten letters and digits. */
export const appleTeamId = z.string().regex(/^[A-Z0-9]{10}$/, {
  error: 'must be the ten-character Apple team identifier (letters and digits, like ABCDE12345)',
});

/** GOOGLE_WALLET_ISSUER_ID: the issuer's number in the Google Pay & Wallet console. */
export const googleWalletIssuerId = z.string().regex(/^\d{6,25}$/, {
  error: 'must be the issuer ID from the Google Pay & Wallet console (digits only)',
});

/**
 * GOOGLE_WALLET_SERVICE_ACCOUNT: the service account's JSON key (text or file path); the
 * site needs its address and RSA key to sign save links.
 */
export const googleWalletServiceAccount = textOrFile(
  (raw) => raw.startsWith('{'),
  'the JSON key of a service account',
  false,
).transform((json, ctx) => {
  const problem = 'must be a service account JSON key with client_email and an RSA private_key';
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    ctx.addIssue({ code: 'custom', message: `${problem} (the text is no JSON)` });
    return z.NEVER;
  }
  const account = z
    .object({
      client_email: z.string().min(3),
      private_key: z.string(),
      private_key_id: z.string().optional(),
    })
    .safeParse(parsed);
  if (!account.success) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: account.data.private_key, format: 'pem' });
  } catch {
    ctx.addIssue({ code: 'custom', message: `${problem} (private_key is no PEM key)` });
    return z.NEVER;
  }
  if (key.asymmetricKeyType !== 'rsa') {
    ctx.addIssue({
      code: 'custom',
      message: `${problem} (got ${key.asymmetricKeyType ?? 'another'} key)`,
    });
    return z.NEVER;
  }
  return {
    clientEmail: account.data.client_email,
    privateKey: key,
    keyId: account.data.private_key_id ?? null,
  };
});

/** BACKUP_DIR: where `npm run backup` writes; relative to the working folder. */
export const backupDir = z.string().default('./backups');

/** BACKUP_KEEP: how many of the newest backups stay; older ones of ours are deleted. */
export const backupKeep = wholeNumber(14, 1, 10_000);

/** BACKUP_PASSPHRASE: unset, backups are plain; set, they are encrypted (never logged). */
export const backupPassphrase = z
  .string()
  .refine((raw) => raw.length >= 12, {
    error: 'must have at least 12 characters (its value is not shown)',
  })
  .optional()
  .transform((value) => value ?? null);
