import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { couponTerms } from '@awhh/machines';
import pg from 'pg';
import Stripe from 'stripe';
import { configureApp, createFastifyAdapter, nestAppOptions } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import {
  CatalogPort,
  type CatalogCoupon,
  type CatalogPost,
  type CatalogProduct,
  type OrderHandOff,
  type OrderRefund,
} from '../../src/catalog/catalog.port.js';
import { CheckoutOptions } from '../../src/orders/checkout.options.js';
import { ORDER_JOBS } from '../../src/orders/order-jobs.js';
import { TICKET_NOTICE_JOB } from '../../src/tickets/ticket-notice.jobs.js';
import { JobOptions } from '../../src/jobs/job-options.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { AppConfig, parseConfig } from '../../src/config/config.js';

export const PUBLIC_URL = 'http://shop.test';
export const WEBHOOK_SECRET = 'whsec_test_checkout_suite';
/** The API key createTestApp gives the site with a fake Stripe; the fake accepts no other. */
export const STRIPE_KEY = 'sk_test_checkout_suite';
/**
 * Both stores: for specs of what differs between them (the repositories' SQL under
 * concurrency, locks across processes, migrations, backups, the ledger's property test).
 */
export const DATABASES = ['sqlite', 'postgres'] as const;
export type DatabaseKind = (typeof DATABASES)[number];
/**
 * An API spec's store: SQLite, the embedded default; `TEST_DATABASES=all` runs it on
 * PostgreSQL too. What the API does is the same on both; where the store matters the
 * specs above run on both every time.
 */
export const API_DATABASES: readonly DatabaseKind[] =
  process.env.TEST_DATABASES === 'all' ? DATABASES : ['sqlite'];

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A database of its own for one suite: a temp SQLite file or a fresh PostgreSQL database. */
export async function createTestDatabase(
  kind: DatabaseKind,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'awhh-checkout-'));
    return {
      url: `sqlite:${join(dir, 'awhh.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `awhh_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A catalog whose products, coupons and order hand-off the test controls. */
export class FakeCatalog extends CatalogPort {
  readonly name = 'fake';
  products: CatalogProduct[] = [
    product(101, 'Afterwork im Hafen', 25, 50, 'event'),
    product(102, 'AWHH Stofftasche', 12.5, null, 'product'),
    product(103, 'Limitiertes Shirt', 30, 2, 'product'),
  ];
  coupons: CatalogCoupon[] = [
    coupon('SOMMER10', 'percent', 10),
    coupon('FUENF', 'fixed_cart', 5),
    coupon('GRATIS', 'percent', 100),
    coupon('ALT', 'percent', 10, { expiresAt: '2020-01-01' }),
  ];
  /** While true, createOrder fails as an unreachable WooCommerce would. */
  failing = false;
  createOrderCalls = 0;
  readonly orders = new Map<string, { id: string; order: OrderHandOff }>();

  async listProducts(): Promise<CatalogProduct[]> {
    return this.products;
  }

  async findCoupon(code: string): Promise<CatalogCoupon | null> {
    return this.coupons.find((c) => c.code.toLowerCase() === code.toLowerCase()) ?? null;
  }

  async listPosts(): Promise<CatalogPost[]> {
    return [];
  }

  async createOrder(order: OrderHandOff): Promise<{ id: string }> {
    this.createOrderCalls += 1;
    if (this.failing) throw new Error('WooCommerce answered 503');
    const existing = this.orders.get(order.reference);
    if (existing) return { id: existing.id };
    const id = String(1000 + this.orders.size);
    this.orders.set(order.reference, { id, order });
    // As WooCommerce: a paid order takes its units from the stock (a variation's own, or
    // its parent's when it shares it), and the answer comes after.
    for (const line of order.lines) this.takeStock(line.productId, line.variationId, line.quantity);
    return { id };
  }

  private takeStock(productId: number, variationId: number | undefined, quantity: number): void {
    const product = this.products.find((p) => p.id === productId);
    const variation = variationId
      ? product?.variants?.find((v) => v.id === variationId)
      : undefined;
    const holder = variation && !variation.sharesParentStock ? variation : product;
    if (holder && typeof holder.stock_quantity === 'number') holder.stock_quantity -= quantity;
  }

  /** The shop's refunds by order reference: the refunded total so far. */
  readonly refunds = new Map<string, number>();

  async refundOrder(refund: OrderRefund): Promise<{ found: boolean; refundId: string | null }> {
    if (!this.orders.has(refund.reference)) return { found: false, refundId: null };
    if ((this.refunds.get(refund.reference) ?? 0) >= refund.refundedTotal) {
      return { found: true, refundId: null };
    }
    this.refunds.set(refund.reference, refund.refundedTotal);
    return { found: true, refundId: `r-${refund.refundReference}` };
  }

  /** Orders made in the shop: none here (backend/test/shop uses the fake WooCommerce). */
  async ordersChangedSince(): Promise<unknown[]> {
    return [];
  }

  async findOrder(): Promise<unknown> {
    return null;
  }

  async orderRefunds(): Promise<unknown[]> {
    return [];
  }

  async restockOrder(): Promise<{ found: boolean; restocked: never[] }> {
    return { found: false, restocked: [] };
  }

  productById(id: number): CatalogProduct {
    const found = this.products.find((p) => p.id === id);
    if (!found) throw new Error(`no product ${id}`);
    return found;
  }
}

function product(
  id: number,
  name: string,
  price: number,
  stock: number | null,
  kind: 'event' | 'product',
): CatalogProduct {
  return {
    id,
    name,
    slug: name.toLowerCase().replace(/\W+/g, '-'),
    meta_data: [],
    price,
    images: [{ src: `/images/${id}.jpg` }],
    stock_status: 'instock',
    stock_quantity: stock,
    categories: [],
    kind,
  };
}

function coupon(
  code: string,
  discountType: string,
  amount: number,
  extra: Partial<CatalogCoupon> = {},
): CatalogCoupon {
  return couponTerms({
    code,
    discountType,
    amount,
    ...extra,
  });
}

/** Empties every checkout table so each test starts from a clean store. */
export async function resetStore(app: NestFastifyApplication): Promise<void> {
  const { db } = app.get(StoreDatabase);
  for (const table of [
    'mail_attachments',
    'mails',
    // rules "Named tickets": transfers reference their tickets.
    'ticket_transfers',
    'ticket_returns',
    'tickets',
    'jobs',
    'holds',
    'order_lines',
    'orders',
    'webhook_events',
    'contact_messages',
    'door_sessions',
    'organizer_notices',
    'capacity_locks',
    'coupon_holds',
    'coupon_locks',
  ] as const) {
    await db.deleteFrom(table).execute();
  }
}

/**
 * Waits until every job of an order is done (the catalog must be up), so a paid order's
 * mail or hand-off does not run in the next test's app, after that test emptied the store.
 */
export async function settleOutbox(app: NestFastifyApplication, timeoutMs = 10_000): Promise<void> {
  const { db } = app.get(StoreDatabase);
  await waitFor(
    async () =>
      !(await db
        .selectFrom('jobs')
        .select('id')
        .where('name', 'in', [...Object.values(ORDER_JOBS), TICKET_NOTICE_JOB])
        .where('done_at', 'is', null)
        .executeTakeFirst()),
    timeoutMs,
  );
}

/** Short timings so expiry happens within a test. */
export function fastOptions(overrides: Partial<CheckoutOptions> = {}): CheckoutOptions {
  return Object.assign(new CheckoutOptions(), overrides);
}

/** Short timings so jobs run and are retried within a test. */
export function fastJobOptions(overrides: Partial<JobOptions> = {}): JobOptions {
  return Object.assign(new JobOptions(), {
    pollMs: 50,
    baseBackoffMs: 50,
    maxBackoffMs: 200,
    leaseMs: 5_000,
    ...overrides,
  });
}

export interface TestAppOptions {
  databaseUrl: string;
  /** Usually a FakeCatalog; any adapter of the port works (the demo catalog, say). */
  catalog: CatalogPort;
  /** Stripe mode against a fake Stripe server; the test provider otherwise. */
  stripeApiBase?: string;
  options?: CheckoutOptions;
  jobOptions?: JobOptions;
  /** More environment (SMTP_URL, MAIL_FROM, TICKET_SIGNING_KEY). */
  env?: NodeJS.ProcessEnv;
}

/** The Nest app as createApp builds it (configureApp), with the catalog and timings replaced. */
export async function createTestApp(setup: TestAppOptions): Promise<NestFastifyApplication> {
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: setup.databaseUrl,
    PUBLIC_URL,
    STATIC_DIR: 'off',
    LOG_LEVEL: 'error',
    MODULES: 'checkout',
    CATALOG_TTL_SECONDS: '0',
    // The tests stand in for nginx on loopback: X-Forwarded-For names the client (freshIp).
    TRUST_PROXY: 'loopback',
    ...setup.env,
  };
  if (setup.stripeApiBase) {
    env.STRIPE_SECRET_KEY = STRIPE_KEY;
    env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
    env.STRIPE_API_BASE = setup.stripeApiBase;
  }
  const config = new AppConfig(parseConfig(env));
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
    .overrideProvider(CatalogPort)
    .useValue(setup.catalog)
    .overrideProvider(CheckoutOptions)
    .useValue(setup.options ?? fastOptions())
    .overrideProvider(JobOptions)
    .useValue(setup.jobOptions ?? fastJobOptions())
    .compile();
  // The production HTTP stack (adapter, rate limits, prefix, error filter, hooks) around
  // the module graph with the providers above replaced.
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createFastifyAdapter(config),
    nestAppOptions(config),
  );
  await configureApp(app, config, { accessLog: false });
  // Real sockets rather than Fastify's inject: the requests cross the same HTTP stack as
  // production traffic (raw body, forwarded-for, redirects).
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

export interface InjectOptions {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}

export interface InjectResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  // Tests read arbitrary response bodies and assert on them field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

/** One HTTP request to the listening app. */
export async function inject(
  app: NestFastifyApplication,
  options: InjectOptions,
): Promise<InjectResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.payload !== undefined) {
    body = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${await app.getUrl()}${options.url}`, {
    method: options.method,
    headers,
    body,
    redirect: 'manual',
  });
  const text = await res.text();
  return {
    statusCode: res.status,
    headers: Object.fromEntries(res.headers),
    body: text,
    json: () => JSON.parse(text),
  };
}

let ipCounter = 0;
/** A distinct client address per request, so the per-IP rate limit stays out of the way. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function line(id: number, price: number, quantity = 1, name = `Produkt ${id}`) {
  return { name, amount: price, quantity, currency: 'eur', images: [], productId: id };
}

export function checkoutBody(
  lines: ReturnType<typeof line>[],
  extra: Record<string, unknown> = {},
) {
  return {
    line_items: lines,
    success_url: `${PUBLIC_URL}/success`,
    cancel_url: `${PUBLIC_URL}/cart`,
    payment_method: 'card',
    coupon: null,
    ...extra,
  };
}

/**
 * Signed in to /veranstalter, from the site's own origin and a fresh address: with a
 * WordPress account (`username` and `applicationPassword`) or the organizer code (`code`).
 * Returns the session cookie as a request sends it.
 */
export async function organizerSignIn(
  app: NestFastifyApplication,
  credentials: { username: string; applicationPassword: string } | { code: string },
): Promise<string> {
  const signed = await inject(app, {
    method: 'POST',
    url: '/api/organizer/session',
    headers: { 'x-forwarded-for': freshIp(), origin: PUBLIC_URL },
    payload: credentials,
  });
  expect(signed.statusCode).toBe(204);
  return signed.headers['set-cookie']!.split(';')[0]!;
}

export async function postCheckout(app: NestFastifyApplication, body: unknown, ip = freshIp()) {
  return inject(app, {
    method: 'POST',
    url: '/api/checkout/session',
    headers: { 'x-forwarded-for': ip },
    payload: body,
  });
}

/**
 * The test provider page's form as a browser posts it (rules "Everything the shop sells":
 * the page asks for e-mail and full name like Stripe Checkout).
 */
export function buyerForm(
  fields: { email?: string; name?: string } = { email: 'gast@example.org', name: 'Karla Kundin' },
): { headers: Record<string, string>; payload: string } {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  };
}

/** A Stripe webhook delivery signed like Stripe signs it. */
export function signedDelivery(
  event: { id: string; type: string; object: Record<string, unknown> },
  options: { secret?: string; timestamp?: number } = {},
) {
  const payload = JSON.stringify({
    id: event.id,
    object: 'event',
    type: event.type,
    created: Math.floor(Date.now() / 1000),
    data: { object: { object: 'checkout.session', ...event.object } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return { payload, signature };
}

export async function deliver(
  app: NestFastifyApplication,
  delivery: { payload: string; signature: string },
) {
  return inject(app, {
    method: 'POST',
    url: '/api/checkout/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
    payload: delivery.payload,
  });
}

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
