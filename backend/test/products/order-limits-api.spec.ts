import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  eventDetailSchema,
  eventSummarySchema,
  MAX_UNITS_PER_ORDER,
  merchDetailSchema,
  productFeedSchema,
} from '@awhh/machines';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { wooEvent, wooProduct } from '../../../tests/support/woocommerce-fixtures.js';
import { createTestApp } from '../support/test-app.js';

beforeAll(() => Logger.overrideLogger(false));

// The checkout's limits per order reach the pages with the product data, so the cart
// stops where the checkout would refuse (one number, kept on the server).

describe('events and merch announce their limit per order (maxPerOrder)', () => {
  let woo: FakeWooCommerce;
  let app: NestFastifyApplication;
  beforeAll(async () => {
    woo = await FakeWooCommerce.start({
      products: [
        wooEvent(701, { slug: 'limit-event' }),
        wooProduct(702, { name: 'Poster', slug: 'poster', price: '15.00' }),
        wooProduct(703, {
          name: 'Signierter Siebdruck',
          slug: 'siebdruck',
          price: '40.00',
          sold_individually: true,
        }),
        wooEvent(704, { slug: 'vip-abend', sold_individually: true }),
      ],
    });
    app = await createTestApp({ ...woo.env, MAX_TICKETS_PER_ORDER: '6' });
  });
  afterAll(async () => {
    await app.close();
    await woo.stop();
  });

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return JSON.parse(res.body) as unknown;
  };

  it('an event: MAX_TICKETS_PER_ORDER; sold individually: 1', async () => {
    const events = eventSummarySchema.array().parse(await get('/api/events'));
    expect(events.map((e) => [e.slug, e.maxPerOrder]).sort()).toEqual([
      ['limit-event', 6],
      ['vip-abend', 1],
    ]);
    expect(eventDetailSchema.parse(await get('/api/events/limit-event')).maxPerOrder).toBe(6);
  });

  it('merch: the order limit, or 1 when WooCommerce sells it individually', async () => {
    expect(merchDetailSchema.parse(await get('/api/merch/poster')).maxPerOrder).toBe(
      MAX_UNITS_PER_ORDER,
    );
    expect(merchDetailSchema.parse(await get('/api/merch/siebdruck')).maxPerOrder).toBe(1);
  });

  it("the feed keeps WooCommerce's sold_individually where it is set", async () => {
    const feed = productFeedSchema.parse(await get('/api/woocommerce/products'));
    expect(feed.find((p) => p.id === 703)?.sold_individually).toBe(true);
    expect(feed.find((p) => p.id === 702)).not.toHaveProperty('sold_individually');
  });
});
