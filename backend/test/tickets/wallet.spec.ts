import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { formatTicketCode, orderSummarySchema } from '@awhh/machines';
import { unzipSync } from 'fflate';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { TICKET_NOT_FOUND_MESSAGE } from '../../src/tickets/ticket.service.js';
import {
  APPLE_WALLET_OFF_MESSAGE,
  GOOGLE_WALLET_OFF_MESSAGE,
  venueLocationOf,
  WALLET_REVOKED_MESSAGE,
} from '../../src/tickets/wallet/wallet.service.js';
import { DemoCatalogAdapter } from '../../src/catalog/adapters/demo-catalog.adapter.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  FakeCatalog,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
} from '../support/checkout-test-app.js';
import {
  type AppleTestChain,
  type GoogleTestAccount,
  makeAppleTestChain,
  makeGoogleTestAccount,
  TEST_ISSUER_ID,
  TEST_PASS_TYPE_ID,
  TEST_TEAM_ID,
} from './support/wallet-keys.js';

jest.setTimeout(120_000);

const EVENT_START = '2026-12-05T18:00:00.000Z';

/** Event 101 with a date, a venue and its coordinates; 102 is merch. */
function walletCatalog(): FakeCatalog {
  const catalog = new FakeCatalog();
  catalog.productById(101).meta_data = [
    { key: 'event_date', value: EVENT_START },
    { key: 'venue', value: 'Strandperle' },
    { key: 'WooCommerceEventsGoogleMaps', value: '53.5452, 9.8869' },
  ];
  return catalog;
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

describe('wallet passes', () => {
  let db: { url: string; drop(): Promise<void> };
  let chain: AppleTestChain;
  let google: GoogleTestAccount;
  let app: NestFastifyApplication | null = null;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    chain = makeAppleTestChain();
    google = makeGoogleTestAccount();
  });
  afterAll(async () => {
    await db.drop();
    chain.remove();
  });
  afterEach(async () => {
    if (app) await settleOutbox(app).catch(() => undefined);
    await app?.close();
    app = null;
  });

  async function start(env: NodeJS.ProcessEnv = {}) {
    app = await createTestApp({ databaseUrl: db.url, catalog: walletCatalog(), env });
    await resetStore(app);
    return app;
  }

  /** Three seats of event 101 paid on the test provider's page; their ticket links. */
  async function buyTickets(target: NestFastifyApplication) {
    const res = await postCheckout(target, checkoutBody([line(101, 25, 3), line(102, 12.5, 1)]));
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json() as { id: string; url: string };
    const paid = await inject(target, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm({ email: 'karla@example.org', name: 'Karla Kundin' }),
    });
    expect(paid.statusCode).toBe(303);
    const summary = await inject(target, { method: 'GET', url: `/api/checkout/session/${id}` });
    return orderSummarySchema.parse(summary.json()).tickets;
  }

  async function ticketRow(target: NestFastifyApplication, token: string) {
    const res = await inject(target, { method: 'GET', url: `/api/tickets/${token}` });
    expect(res.statusCode).toBe(200);
    return res.json() as { id: string; code: string };
  }

  async function fetchBytes(target: NestFastifyApplication, path: string) {
    const res = await fetch(`${await target.getUrl()}${path}`);
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  }

  it('Apple Wallet: a signed .pkpass with the ticket, its QR payload and the venue', async () => {
    const target = await start(chain.env);
    const [link] = await buyTickets(target);
    const ticket = await ticketRow(target, link!.token);

    const { res, body } = await fetchBytes(target, `/api/tickets/${link!.token}/wallet/apple`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="ticket-afterwork-im-hafen-1.pkpass"',
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.length).toBeLessThanOrEqual(60 * 1024);

    const files = unzipSync(new Uint8Array(body));
    const names = Object.keys(files).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'icon.png',
        'icon@2x.png',
        'logo.png',
        'manifest.json',
        'pass.json',
        'signature',
      ]),
    );
    // manifest.json: the SHA-1 of every file but itself and the signature, and nothing else.
    const manifest = JSON.parse(Buffer.from(files['manifest.json']!).toString()) as Record<
      string,
      string
    >;
    const hashed = names.filter((n) => n !== 'manifest.json' && n !== 'signature');
    expect(Object.keys(manifest).sort()).toEqual(hashed);
    for (const name of hashed) expect(manifest[name]).toBe(sha1(files[name]!));

    const pass = JSON.parse(Buffer.from(files['pass.json']!).toString());
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: TEST_PASS_TYPE_ID,
      teamIdentifier: TEST_TEAM_ID,
      organizationName: 'After Work Hamburg',
      serialNumber: ticket.id,
      backgroundColor: 'rgb(11, 15, 26)',
      labelColor: 'rgb(216, 184, 120)',
      // The same QR payload as the PDF: the signed token; the short code beneath it.
      barcodes: [
        {
          format: 'PKBarcodeFormatQR',
          message: link!.token,
          altText: formatTicketCode(ticket.code),
        },
      ],
      locations: [{ latitude: 53.5452, longitude: 9.8869 }],
    });
    // 19:00 in Hamburg (18:00 UTC): on the lock screen from 16:00, and near the venue.
    expect(new Date(pass.relevantDate).toISOString()).toBe('2026-12-05T15:00:00.000Z');
    expect(pass.sharingProhibited).toBe(true);
    const fields = Object.fromEntries(
      ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'].flatMap(
        (group) =>
          (pass.eventTicket[group] as { key: string; value: string }[]).map((f) => [
            f.key,
            f.value,
          ]),
      ),
    );
    expect(fields).toMatchObject({
      event: 'Afterwork im Hafen',
      date: 'Samstag, 5. Dezember 2026',
      time: '19:00 Uhr',
      venue: 'Strandperle',
      tier: 'Eintritt · 1 von 3',
      holder: 'Karla Kundin',
      code: formatTicketCode(ticket.code),
      page: `${PUBLIC_URL}/tickets/${link!.token}`,
    });

    // The PKCS#7 signature over manifest.json, checked by openssl against the test root.
    const dir = mkdtempSync(join(tmpdir(), 'awhh-pkpass-'));
    try {
      for (const name of ['manifest.json', 'signature'])
        writeFileSync(join(dir, name), files[name]!);
      const verify = (content: string) =>
        execFileSync(
          'openssl',
          [
            'smime',
            '-verify',
            '-inform',
            'DER',
            '-binary',
            '-in',
            'signature',
            '-content',
            content,
            '-CAfile',
            chain.caFile,
            '-out',
            '/dev/null',
          ],
          { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
        );
      expect(() => verify('manifest.json')).not.toThrow();
      // A manifest changed after signing is refused: the check can fail.
      writeFileSync(
        join(dir, 'altered.json'),
        JSON.stringify({ ...manifest, 'pass.json': '0'.repeat(40) }),
      );
      expect(() => verify('altered.json')).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no pass for a revoked ticket or a token that leads nowhere; the same answers as the PDF', async () => {
    const target = await start({ ...chain.env, ...google.env });
    const [first, second] = await buyTickets(target);
    const revoked = await ticketRow(target, second!.token);
    await target
      .get(StoreDatabase)
      .db.updateTable('tickets')
      .set({ status: 'revoked', revoked_at: Date.now() })
      .where('id', '=', revoked.id)
      .execute();

    for (const wallet of ['apple', 'google']) {
      const gone = await inject(target, {
        method: 'GET',
        url: `/api/tickets/${second!.token}/wallet/${wallet}`,
      });
      expect(gone.statusCode).toBe(410);
      expect(gone.json()).toMatchObject({ statusCode: 410, message: WALLET_REVOKED_MESSAGE });

      const altered = `${first!.token.slice(0, -4)}AAAA`;
      for (const token of [altered, 'kein-ticket']) {
        const res = await inject(target, {
          method: 'GET',
          url: `/api/tickets/${token}/wallet/${wallet}`,
        });
        const pdf = await inject(target, { method: 'GET', url: `/api/tickets/${token}/pdf` });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(pdf.json());
        expect(res.json().message).toBe(TICKET_NOT_FOUND_MESSAGE);
      }
    }
  });

  it('Google Wallet: a save link whose RS256 JWT carries the event class and the ticket object', async () => {
    const target = await start(google.env);
    const [link] = await buyTickets(target);
    const ticket = await ticketRow(target, link!.token);

    const res = await inject(target, {
      method: 'GET',
      url: `/api/tickets/${link!.token}/wallet/google`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { url } = res.json() as { url: string };
    expect(url.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const jwt = url.slice('https://pay.google.com/gp/v/save/'.length);

    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', kid: 'test-key-1' });
    const { payload } = await jwtVerify(jwt, google.publicKey, {
      algorithms: ['RS256'],
      issuer: google.clientEmail,
      audience: 'google',
    });
    expect(payload).toMatchObject({ typ: 'savetowallet', origins: [PUBLIC_URL] });
    const body = payload.payload as {
      eventTicketClasses: Record<string, unknown>[];
      eventTicketObjects: Record<string, unknown>[];
    };
    const classId = `${TEST_ISSUER_ID}.awhh-event-101`;
    expect(body.eventTicketClasses).toEqual([
      expect.objectContaining({
        id: classId,
        issuerName: 'After Work Hamburg',
        eventName: { defaultValue: { language: 'de-DE', value: 'Afterwork im Hafen' } },
        venue: expect.objectContaining({
          name: { defaultValue: { language: 'de-DE', value: 'Strandperle' } },
        }),
        dateTime: { start: '2026-12-05T19:00:00+01:00' },
      }),
    ]);
    expect(body.eventTicketObjects).toEqual([
      expect.objectContaining({
        id: `${TEST_ISSUER_ID}.awhh-ticket-${ticket.id}`,
        classId,
        state: 'ACTIVE',
        // The same QR payload as the PDF: the ticket's token.
        barcode: {
          type: 'QR_CODE',
          value: link!.token,
          alternateText: formatTicketCode(ticket.code),
        },
        ticketHolderName: 'Karla Kundin',
        ticketNumber: formatTicketCode(ticket.code),
      }),
    ]);

    // Another key does not verify it.
    const other = makeGoogleTestAccount();
    await expect(jwtVerify(jwt, other.publicKey)).rejects.toThrow();
  });

  it('unconfigured: no wallet is offered and both answer a German 404', async () => {
    const target = await start();
    const [link] = await buyTickets(target);
    const options = await inject(target, { method: 'GET', url: '/api/tickets/wallet' });
    expect(options.statusCode).toBe(200);
    expect(options.json()).toEqual({ apple: false, google: false });

    const apple = await inject(target, {
      method: 'GET',
      url: `/api/tickets/${link!.token}/wallet/apple`,
    });
    expect(apple.statusCode).toBe(404);
    expect(apple.json()).toMatchObject({ statusCode: 404, message: APPLE_WALLET_OFF_MESSAGE });
    const googleRes = await inject(target, {
      method: 'GET',
      url: `/api/tickets/${link!.token}/wallet/google`,
    });
    expect(googleRes.statusCode).toBe(404);
    expect(googleRes.json()).toMatchObject({ statusCode: 404, message: GOOGLE_WALLET_OFF_MESSAGE });
  });

  it('configured: the options say so, and name no secret', async () => {
    const target = await start({ ...chain.env, ...google.env });
    const res = await inject(target, { method: 'GET', url: '/api/tickets/wallet' });
    expect(res.json()).toEqual({ apple: true, google: true });
  });

  /** The ticket mail of the one order, from the embedded mailbox (/mail-test). */
  async function ticketMail(target: NestFastifyApplication) {
    await settleOutbox(target);
    const list = await inject(target, { method: 'GET', url: '/api/mail-test/messages' });
    const [summary] = list.json() as { id: string }[];
    const res = await inject(target, {
      method: 'GET',
      url: `/api/mail-test/messages/${summary!.id}`,
    });
    return res.json() as { html: string; text: string };
  }

  it('the ticket mail links both wallets per ticket; the links lead to the pass and to Google', async () => {
    const target = await start({ ...chain.env, ...google.env });
    const links = await buyTickets(target);
    const mail = await ticketMail(target);
    for (const { token } of links) {
      const base = `${PUBLIC_URL}/api/tickets/${token}/wallet`;
      expect(mail.text).toContain(`Zu Apple Wallet hinzufügen: ${base}/apple`);
      expect(mail.text).toContain(`Zu Google Wallet hinzufügen: ${base}/google/save`);
      expect(mail.html).toContain(`href="${base}/apple"`);
      expect(mail.html).toContain(`href="${base}/google/save"`);
    }
    const token = links[0]!.token;
    const save = await inject(target, {
      method: 'GET',
      url: `/api/tickets/${token}/wallet/google/save`,
    });
    expect(save.statusCode).toBe(303);
    expect(save.headers.location).toMatch(
      /^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/,
    );
    const { payload } = await jwtVerify(
      save.headers.location!.slice('https://pay.google.com/gp/v/save/'.length),
      google.publicKey,
    );
    expect(
      (payload.payload as { eventTicketObjects: { barcode: { value: string } }[] })
        .eventTicketObjects[0]!.barcode.value,
    ).toBe(token);
  });

  it('without wallets the mail names none', async () => {
    const target = await start();
    await buyTickets(target);
    const mail = await ticketMail(target);
    expect(mail.text).toContain('Ticket-Code');
    expect(mail.text).not.toContain('Wallet');
    expect(mail.html).not.toContain('Wallet');
  });

  describe('configuration', () => {
    const problemIn = (env: NodeJS.ProcessEnv) => {
      try {
        parseConfig(env);
      } catch (err) {
        if (err instanceof ConfigError) return err.variable;
        throw err;
      }
      return null;
    };

    it('all of Apple Wallet or none, each problem naming its variable', () => {
      expect(parseConfig(chain.env).wallet?.apple).toMatchObject({ passTypeId: TEST_PASS_TYPE_ID });
      expect(parseConfig({}).wallet).toEqual({ apple: null, google: null });
      for (const name of [
        'APPLE_PASS_TYPE_ID',
        'APPLE_TEAM_ID',
        'APPLE_PASS_CERT',
        'APPLE_PASS_KEY',
        'APPLE_WWDR_CERT',
      ]) {
        expect(problemIn({ ...chain.env, [name]: '' })).toBe(name);
      }
      expect(problemIn({ APPLE_PASS_KEY_PASSPHRASE: 'x' })).toBe('APPLE_PASS_KEY');
      expect(problemIn({ ...chain.env, APPLE_PASS_KEY_PASSPHRASE: 'falsch' })).toBe(
        'APPLE_PASS_KEY',
      );
      expect(problemIn({ ...chain.env, APPLE_PASS_KEY_PASSPHRASE: '' })).toBe('APPLE_PASS_KEY');
      // The key of another certificate.
      expect(problemIn({ ...chain.env, APPLE_PASS_KEY: join(chain.dir, 'wwdr.key') })).toBe(
        'APPLE_PASS_KEY',
      );
      expect(problemIn({ ...chain.env, APPLE_PASS_CERT: join(chain.dir, 'missing.pem') })).toBe(
        'APPLE_PASS_CERT',
      );
      expect(
        problemIn({ ...chain.env, APPLE_WWDR_CERT: '-----BEGIN CERTIFICATE-----\\nkaputt' }),
      ).toBe('APPLE_WWDR_CERT');
      expect(problemIn({ ...chain.env, APPLE_TEAM_ID: 'team' })).toBe('APPLE_TEAM_ID');
      expect(() =>
        parseConfig({ ...chain.env, APPLE_PASS_CERT: join(chain.dir, 'missing.pem') }),
      ).toThrow(/APPLE_PASS_CERT must be PEM text .* or the path of a readable file/);
    });

    it('Google Wallet: the issuer and the service account together', () => {
      expect(parseConfig(google.env).wallet?.google).toMatchObject({
        issuerId: TEST_ISSUER_ID,
        clientEmail: google.clientEmail,
      });
      expect(problemIn({ GOOGLE_WALLET_ISSUER_ID: TEST_ISSUER_ID })).toBe(
        'GOOGLE_WALLET_SERVICE_ACCOUNT',
      );
      expect(
        problemIn({ GOOGLE_WALLET_SERVICE_ACCOUNT: google.env.GOOGLE_WALLET_SERVICE_ACCOUNT }),
      ).toBe('GOOGLE_WALLET_ISSUER_ID');
      expect(
        problemIn({ ...google.env, GOOGLE_WALLET_SERVICE_ACCOUNT: '{"client_email":"x"}' }),
      ).toBe('GOOGLE_WALLET_SERVICE_ACCOUNT');
      expect(problemIn({ ...google.env, GOOGLE_WALLET_ISSUER_ID: 'abc' })).toBe(
        'GOOGLE_WALLET_ISSUER_ID',
      );
    });
  });

  it("the venue's coordinates from the event's product, in the forms the shop's plugins write", async () => {
    const product = (meta: { key: string; value: unknown }[]) => ({ meta_data: meta });
    expect(venueLocationOf(product([{ key: 'coordinates', value: '53.5487, 9.9905' }]))).toEqual({
      latitude: 53.5487,
      longitude: 9.9905,
    });
    expect(
      venueLocationOf(
        product([
          { key: 'latitude', value: '53.5' },
          { key: 'longitude', value: 10 },
        ]),
      ),
    ).toEqual({ latitude: 53.5, longitude: 10 });
    for (const value of ['Hamburg', '95, 10', '53.5', '0, 0', '']) {
      expect(venueLocationOf(product([{ key: 'WooCommerceEventsGoogleMaps', value }]))).toBeNull();
    }
    expect(venueLocationOf(product([]))).toBeNull();
    // The demo shop's rooftop evening carries its place.
    const demo = await new DemoCatalogAdapter().listProducts();
    expect(venueLocationOf(demo.find((p) => p.id === 101)!)).toEqual({
      latitude: 53.5487,
      longitude: 9.9905,
    });
  });
});
