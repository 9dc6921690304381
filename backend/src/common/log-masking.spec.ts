import { ConsoleLogger } from '@nestjs/common';
import { maskLogValue, maskSecrets } from './log-masking.js';
import { createLogger } from './logger.js';

// A signed ticket as the server issues it (compact JWS, Ed25519): header, payload, signature.
const TICKET =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImF3aGgtMSJ9.eyJ0aWQiOiJ0a3RfQWJDZDEyMyIsImV2ZW50IjoxMDF9.' +
  'c2lnbmF0dXJlLW9mLXRoZS10aWNrZXQtZm9yLXRlc3Rpbmc';
const WAITLIST = 'Qk9HVVMtd2FpdGxpc3QtdG9rZW4tMjQtYnl0ZXM';
const STRIPE_SESSION = 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const TEST_SESSION = 'tps_3fQ9xZk2LmN8pR4sT7vW1yB6';

describe('maskSecrets', () => {
  it.each([
    // The ticket page, its API, its PDF, wallet passes, encoded or not.
    [`/tickets/${TICKET}`, '/tickets/[token]'],
    [`/tickets/${encodeURIComponent(TICKET)}?ansicht=druck`, '/tickets/[token]?ansicht=druck'],
    [`/api/tickets/${TICKET}`, '/api/tickets/[token]'],
    [`/api/tickets/${TICKET}/pdf`, '/api/tickets/[token]/pdf'],
    [`/api/tickets/${TICKET}/wallet/apple`, '/api/tickets/[token]/wallet/apple'],
    ['/api/tickets/kaputt-aber-geheim', '/api/tickets/[token]'],
    // A reminder's unsubscribe link (page and form), sessions wherever they stand.
    ['/api/reminders/unsubscribe/QWJtZWxkZS1Ub2tlbi0yNA', '/api/reminders/unsubscribe/[token]'],
    ['/reminders/unsubscribe/QWJtZWxkZS1Ub2tlbi0yNA?x=1', '/reminders/unsubscribe/[token]?x=1'],
    ['Bearer door.MTczNTY4MDAwMDAwMA.c2lnbmF0dXJl', 'Bearer [token]'],
    [
      'cookie: awhh_organizer=v2.QUJDREVGR0hJSktMTU5PUFFSU1RVVldY; x=1',
      'cookie: awhh_organizer=[token]; x=1',
    ],
    // The waiting list's pages and API.
    [`/waitlist/offer/${WAITLIST}`, '/waitlist/offer/[token]'],
    [`/waitlist/confirm/${WAITLIST}`, '/waitlist/confirm/[token]'],
    [`/waitlist/unsubscribe/${WAITLIST}`, '/waitlist/unsubscribe/[token]'],
    [`/api/waitlist/offers/${WAITLIST}`, '/api/waitlist/offers/[token]'],
    [`/api/waitlist/offers/${WAITLIST}/decline`, '/api/waitlist/offers/[token]/decline'],
    [`/api/waitlist/confirm/${WAITLIST}`, '/api/waitlist/confirm/[token]'],
    [`/api/waitlist/unsubscribe/${WAITLIST}`, '/api/waitlist/unsubscribe/[token]'],
    [`/checkout?angebot=${WAITLIST}`, '/checkout?angebot=[token]'],
    // Orders: the summary, the return from payment, the test provider's page.
    [`/api/checkout/session/${STRIPE_SESSION}`, '/api/checkout/session/[token]'],
    [`/api/checkout/session/${TEST_SESSION}`, '/api/checkout/session/[token]'],
    [`/success?session_id=${STRIPE_SESSION}`, '/success?session_id=[token]'],
    [
      `/success?utm_source=mail&session_id=${TEST_SESSION}&x=1`,
      '/success?utm_source=mail&session_id=[token]&x=1',
    ],
    [`/api/checkout/test-provider/${TEST_SESSION}`, '/api/checkout/test-provider/[token]'],
    [`/api/checkout/test-provider/${TEST_SESSION}/pay`, '/api/checkout/test-provider/[token]/pay'],
    // E-mail addresses anywhere in a URL, plain or encoded.
    ['/api/tickets/resend?email=karla@example.org', '/api/tickets/resend?email=[email]'],
    ['/kontakt?email=karla.kundin%2Bawhh%40example.org&x=1', '/kontakt?email=[email]&x=1'],
    ['/karla@example.org/', '/[email]/'],
    // `+` may be part of an address or a form-encoded space: rather too much masked.
    ['/suche?q=Karla+Kundin+karla%40mail.example.de', '/suche?q=[email]'],
    // Door codes and other passwords in a query string.
    ['/einlass?code=ABCD-EFGH-JKLM', '/einlass?code=[code]'],
    ['/api/checkin/events?CheckIn_Code=geheim', '/api/checkin/events?CheckIn_Code=[code]'],
    [
      '/wp-json/wc/v3/orders?consumer_key=ck_1&consumer_secret=cs_2',
      '/wp-json/wc/v3/orders?consumer_key=[code]&consumer_secret=[code]',
    ],
  ])('%s → %s', (input, expected) => {
    expect(maskSecrets(input)).toBe(expected);
  });

  it.each([
    '/',
    '/api/events',
    '/api/events/sommer-afterwork?x=1',
    '/api/tickets/public-key',
    '/api/tickets/resend',
    '/api/waitlist',
    '/api/waitlist/counts',
    '/api/waitlist/availability/101',
    '/api/checkout/session',
    '/api/checkout/test-provider/assets/page.css',
    '/api/checkin/events/101/tickets',
    '/blog/neues-aus-dem-hafen?seite=2',
    '/mail-test?mail=m_42',
    'listening on http://0.0.0.0:3000',
  ])('leaves %s as it is', (url) => {
    expect(maskSecrets(url)).toBe(url);
  });

  it('masks secrets inside free text: a full URL, an SMTP answer, an error naming a ticket', () => {
    expect(maskSecrets(`page render failed: https://awhh.de/tickets/${TICKET}#qr`)).toBe(
      'page render failed: https://awhh.de/tickets/[token]#qr',
    );
    expect(
      maskSecrets(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <karla@example.org>: Recipient address rejected",
      ),
    ).toBe(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <[email]>: Recipient address rejected",
    );
    expect(maskSecrets(`ticket ${TICKET} unknown, session ${STRIPE_SESSION}`)).toBe(
      'ticket [token] unknown, session [token]',
    );
    expect(maskSecrets(`Weiter: "/waitlist/offer/${WAITLIST}"`)).toBe(
      'Weiter: "/waitlist/offer/[token]"',
    );
  });

  it('is idempotent', () => {
    const once = maskSecrets(`/api/tickets/${TICKET}/pdf?email=a@b.de&session_id=${TEST_SESSION}`);
    expect(maskSecrets(once)).toBe(once);
  });
});

describe('maskLogValue', () => {
  it('masks every string of a log object, nested, and keeps numbers, keys and errors', () => {
    const error = new Error('an error');
    const masked = maskLogValue({
      msg: 'request',
      url: `/api/tickets/${TICKET}`,
      statusCode: 200,
      to: ['karla@example.org', { address: 'ole@example.org' }],
      error,
    });
    expect(masked).toEqual({
      msg: 'request',
      url: '/api/tickets/[token]',
      statusCode: 200,
      to: ['[email]', { address: '[email]' }],
      error,
    });
  });
});

describe('createLogger', () => {
  function capture(run: (logger: ConsoleLogger) => void): string {
    const written: string[] = [];
    const spies = [process.stdout, process.stderr].map((stream) =>
      jest.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
        written.push(String(chunk));
        return true;
      }),
    );
    try {
      run(createLogger('debug'));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return written.join('');
  }

  it('writes JSON lines with the secrets masked: messages, errors and their stacks', () => {
    const out = capture((logger) => {
      logger.log({ msg: 'request', url: `/tickets/${TICKET}` }, 'HTTP');
      logger.warn({ msg: 'mail failed', error: 'rejected <karla@example.org>' }, 'Mail');
      logger.error(new Error(`no order for ${STRIPE_SESSION} (ole@example.org)`));
      logger.error('render failed', `Error: /waitlist/offer/${WAITLIST}\n    at x`, 'Site');
    });
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(out).toContain('/tickets/[token]');
    expect(out).toContain('rejected <[email]>');
    for (const secret of [
      TICKET,
      WAITLIST,
      STRIPE_SESSION,
      'karla@example.org',
      'ole@example.org',
    ]) {
      expect(out).not.toContain(secret);
    }
  });
});
