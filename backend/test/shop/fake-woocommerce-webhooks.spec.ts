import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import putCancelled from '../../../tests/support/woocommerce-11/orders.34.put-cancelled.json' with { type: 'json' };
import putRefunded from '../../../tests/support/woocommerce-11/orders.35.put-refunded.json' with { type: 'json' };
import refundedList from '../../../tests/support/woocommerce-11/orders.35.refunds.list.json' with { type: 'json' };
import { recordedShop, wpDate } from '../../../tests/support/woocommerce-fixtures.js';
import { WEBHOOK_RECORDINGS as REC } from '../../../tests/support/woocommerce-webhooks.js';

// The one fake WooCommerce sends webhooks and changes orders as the recorded shop did
// (woocommerce-11/webhooks/*, orders.34.put-cancelled, orders.35.put-refunded): the same
// headers and a raw body written like PHP's json_encode, signed over those bytes; a
// status change with its stock, coupon and refund; and `modified_after` as WordPress reads it.

type Json = Record<string, unknown>;
const SECRET = 'whsec_fake_suite';
const VIP = 45;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('fake WooCommerce: webhooks and order changes, as recorded', () => {
  let fake: FakeWooCommerce;
  let receiver: Server;
  let received: Received[];
  let deliveryUrl: string;

  beforeEach(async () => {
    fake = await FakeWooCommerce.start(recordedShop());
    received = [];
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    deliveryUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterEach(async () => {
    await fake.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${fake.url}/wp-json/wc/v3${path}`, {
      method,
      headers: {
        authorization: 'Basic ' + Buffer.from(`${fake.key}:${fake.secret}`).toString('base64'),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
  }

  const lower = (headers: Record<string, string>) =>
    Object.keys(headers)
      .map((k) => k.toLowerCase())
      .sort();

  it('pings on creation, then sends order.created and order.updated as recorded, signed over the raw body', async () => {
    await fake.addWebhook({ topic: 'order.created', deliveryUrl, secret: SECRET });
    await fake.addWebhook({ topic: 'order.updated', deliveryUrl, secret: SECRET });
    // The ping: form-encoded, unsigned, no X-WC headers (recorded).
    expect(received.map((r) => r.body)).toEqual(['webhook_id=1', 'webhook_id=2']);
    expect(received[0]!.headers['content-type']).toBe(REC.ping.headers['Content-Type']);
    expect(received[0]!.headers['x-wc-webhook-signature']).toBeUndefined();

    const order = fake.placeOrder({
      status: 'processing',
      billing: { first_name: 'Karla', last_name: 'Kundin', email: 'karla@example.org' },
      line_items: [{ product_id: 42, variation_id: VIP, quantity: 1 }],
    });
    await fake.settleWebhooks();
    const [created, updated] = received.slice(2);
    const recorded = REC.orderCreatedProcessing;
    for (const delivery of [created!, updated!]) {
      // Every header the recording has, none more (fetch adds its transport headers).
      for (const name of lower(recorded.headers)) expect(delivery.headers[name]).toBeDefined();
      expect(delivery.headers['user-agent']).toBe(recorded.headers['User-Agent']);
      expect(delivery.headers['x-wc-webhook-source']).toBe(recorded.headers['X-WC-Webhook-Source']);
      expect(delivery.headers['x-wc-webhook-resource']).toBe('order');
      expect(delivery.headers['x-wc-webhook-delivery-id']).toMatch(/^[0-9a-f]{32}$/);
      const signature = createHmac('sha256', SECRET)
        .update(Buffer.from(delivery.body, 'utf8'))
        .digest('base64');
      expect(delivery.headers['x-wc-webhook-signature']).toBe(signature);
      // The order as the REST API renders it, keys in the recorded order.
      const body = JSON.parse(delivery.body) as Json;
      expect(Object.keys(body)).toEqual(Object.keys(JSON.parse(recorded.rawBody) as Json));
      expect(body).toMatchObject({ id: order.id, status: 'processing', created_via: 'admin' });
    }
    expect(created!.headers['x-wc-webhook-topic']).toBe('order.created');
    expect(updated!.headers['x-wc-webhook-topic']).toBe('order.updated');
    // PHP's json_encode: slashes and non-ASCII escaped, as in the recording.
    expect(recorded.rawBody).toContain('"currency_symbol":"\\u20ac"');
    expect(created!.body).toContain('"currency_symbol":"\\u20ac"');
    expect(created!.body).toContain('https:\\/\\/shop.afterwork-hamburg.example');
    expect(created!.body).not.toMatch(/[^\x20-\x7e]/);
  });

  it('one pending delivery per webhook and order, its body as the order is when sent; lost ones never arrive', async () => {
    await fake.addWebhook({ topic: 'order.updated', deliveryUrl, secret: SECRET });
    const order = fake.placeOrder({
      status: 'processing',
      line_items: [{ product_id: 15, quantity: 1 }],
    });
    // Created and cancelled before the delivery goes out: one delivery, already cancelled
    // (recorded: "an order.created delivery can already say cancelled").
    fake.setOrderStatus(order.id, 'cancelled');
    await fake.settleWebhooks();
    const deliveries = received.slice(1);
    expect(deliveries).toHaveLength(1);
    expect(JSON.parse(deliveries[0]!.body)).toMatchObject({ id: order.id, status: 'cancelled' });

    fake.loseDeliveries(1);
    fake.setOrderStatus(order.id, 'pending');
    await fake.settleWebhooks();
    expect(received).toHaveLength(2);
    expect(fake.deliveries.at(-1)).toMatchObject({ topic: 'order.updated', status: 'lost' });
  });

  it('order.deleted carries the id alone, for the trash and for good', async () => {
    await fake.addWebhook({ topic: 'order.deleted', deliveryUrl, secret: SECRET });
    const order = fake.placeOrder({
      status: 'processing',
      line_items: [{ product_id: 15, quantity: 1 }],
    });
    fake.trashOrder(order.id);
    await fake.settleWebhooks();
    expect(received.slice(1).map((r) => [r.headers['x-wc-webhook-topic'], r.body])).toEqual([
      ['order.deleted', `{"id":${order.id}}`],
    ]);
    expect((await call('GET', `/orders/${order.id}`)).body).toMatchObject({ status: 'trash' });
  });

  it('PUT /orders/{id} {status} as recorded: cancelled gives the stock and the coupon use back, refunded refunds the rest', async () => {
    const coupon = fake.coupons.find((c) => c.code === 'fest5')!;
    const stock = () => fake.products.find((p) => p.id === 15)!.stock_quantity;
    const before = stock();
    const usedBefore = coupon.usage_count;
    const created = await call('POST', '/orders', {
      set_paid: true,
      billing: { email: 'karla@example.org' },
      line_items: [{ product_id: 15, quantity: 2 }],
      coupon_lines: [{ code: 'fest5' }],
    });
    const order = created.body as { id: number };
    expect(stock()).toBe(Number(before) - 2);
    expect(coupon.usage_count).toBe(usedBefore + 1);

    const cancelled = await call('PUT', `/orders/${order.id}`, putCancelled.request.body);
    expect(cancelled.status).toBe(putCancelled.status);
    expect(Object.keys(cancelled.body as Json)).toEqual(Object.keys(putCancelled.body));
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      date_completed: null,
      refunds: [],
    });
    // The line's `_reduced_stock` goes with the stock it stood for (recorded).
    const line = (cancelled.body as { line_items: { meta_data: { key: string }[] }[] })
      .line_items[0]!;
    expect(line.meta_data.map((m) => m.key)).not.toContain('_reduced_stock');
    expect(stock()).toBe(before);
    expect(coupon.usage_count).toBe(usedBefore);
    expect(coupon.used_by).not.toContain('karla@example.org');

    const paid = (
      await call('POST', '/orders', {
        set_paid: true,
        line_items: [{ product_id: 15, quantity: 1 }],
      })
    ).body as { id: number; total: string };
    const refunded = await call('PUT', `/orders/${paid.id}`, putRefunded.request.body);
    expect(refunded.body).toMatchObject({
      status: 'refunded',
      refunds: [{ reason: putRefunded.body.refunds[0]!.reason, total: `-${paid.total}` }],
    });
    // No stock back for a refund without line items (recorded).
    expect(stock()).toBe(Number(before) - 1);
    const refunds = await call('GET', `/orders/${paid.id}/refunds`);
    expect(refunds.body).toEqual([
      expect.objectContaining({
        amount: paid.total,
        reason: refundedList.body[0]!.reason,
        refunded_payment: false,
        line_items: [],
      }),
    ]);

    const bad = await call('PUT', `/orders/${paid.id}`, { status: 'erledigt' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
  });

  it('GET /orders: modified_after as WordPress reads it, status any without the trash, orderby modified', async () => {
    let clock = new Date('2026-11-25T10:00:00Z');
    fake = await restartWithClock(() => clock);
    const first = fake.placeOrder({
      status: 'processing',
      line_items: [{ product_id: 15, quantity: 1 }],
    });
    clock = new Date('2026-11-25T10:05:00Z');
    const second = fake.placeOrder({
      status: 'processing',
      line_items: [{ product_id: 15, quantity: 1 }],
    });
    clock = new Date('2026-11-25T10:10:00Z');
    fake.setOrderStatus(first.id, 'completed');
    const ids = async (query: string) =>
      ((await call('GET', `/orders?${query}`)).body as { id: number }[]).map((o) => o.id);

    // With its offset, the value is an instant; exclusive, as WP_Date_Query's "after".
    expect(await ids('modified_after=2026-11-25T10:04:59Z&orderby=modified&order=asc')).toEqual([
      second.id,
      first.id,
    ]);
    expect(await ids('modified_after=2026-11-25T10:05:00Z')).toEqual([first.id]);
    // Without one, the site's time (Berlin: UTC+1 in November).
    expect(await ids(`modified_after=${wpDate(new Date('2026-11-25T10:06:00Z')).local}`)).toEqual([
      first.id,
    ]);
    expect(await ids('modified_after=2026-11-25T10:06:00&dates_are_gmt=true')).toEqual([first.id]);

    fake.trashOrder(second.id);
    expect(await ids('modified_after=2026-11-25T10:00:00Z')).toEqual([first.id]);
    expect(await ids('modified_after=2026-11-25T10:00:00Z&status=trash')).toEqual([second.id]);

    const bad = await call('GET', '/orders?modified_after=gestern');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): modified_after',
    });
  });

  async function restartWithClock(now: () => Date): Promise<FakeWooCommerce> {
    await fake.stop();
    return FakeWooCommerce.start({ ...recordedShop(), orders: [], now });
  }
});
