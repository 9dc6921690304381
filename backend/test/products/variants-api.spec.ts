import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  apiErrorSchema,
  eventDetailSchema,
  eventSummarySchema,
  merchDetailSchema,
  merchSummarySchema,
  productFeedSchema,
} from '@awhh/machines';
import { CatalogService } from '../../src/catalog/catalog.service.js';
import { createTestApp } from '../support/test-app.js';

beforeAll(() => Logger.overrideLogger(false));

const json = <T>(res: { body: string }) => JSON.parse(res.body) as T;

describe('variations and merch over HTTP (rules "Everything the shop sells", demo catalog)', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('an event with ticket tiers lists them with price, sale price and availability', async () => {
    const res = await get('/api/events/sommer-afterwork-ms-hamburg');
    expect(res.statusCode).toBe(200);
    const event = eventDetailSchema.parse(json(res));
    expect(event.variants).toEqual([
      {
        id: 1091,
        name: 'Early Bird',
        attributes: [{ name: 'Ticket', option: 'Early Bird' }],
        price: 25,
        regularPrice: 25,
        availability: 'sold_out',
        available: 0,
      },
      {
        id: 1092,
        name: 'Regulär',
        attributes: [{ name: 'Ticket', option: 'Regulär' }],
        price: 35,
        regularPrice: 35,
        availability: 'available',
        available: 40,
      },
      {
        id: 1093,
        name: 'VIP',
        attributes: [{ name: 'Ticket', option: 'VIP' }],
        price: 49,
        regularPrice: 59,
        availability: 'few_left',
        available: 4,
      },
    ]);
  });

  it('prices a tiered event from its cheapest tier still on offer, never from a sold-out one', async () => {
    const events = eventSummarySchema.array().parse(json(await get('/api/events')));
    const tiered = events.find((e) => e.slug === 'sommer-afterwork-ms-hamburg')!;
    // Early Bird (25 €) is sold out: the event is offered from 35 €, with 44 seats left.
    expect(tiered).toMatchObject({ price: 35, availability: 'available', available: 44 });
    const simple = events.find((e) => e.slug === 'afterwork-dachterrasse')!;
    expect(simple.variants).toEqual([]);
    expect(simple.regularPrice).toBe(simple.price);
  });

  it('GET /api/merch lists every product that is not an event, sizes as variants', async () => {
    const res = await get('/api/merch');
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^W\//);
    const merch = merchSummarySchema.array().parse(json(res));
    expect(merch.map((m) => m.slug).sort()).toEqual([
      'awhh-cap-moin',
      'awhh-emaille-becher',
      'awhh-jutebeutel',
      'awhh-t-shirt',
    ]);
    const shirt = merch.find((m) => m.slug === 'awhh-t-shirt')!;
    expect(shirt.variants.map((v) => [v.name, v.availability])).toEqual([
      ['S', 'few_left'],
      ['M', 'available'],
      ['L', 'available'],
      ['XL', 'sold_out'],
    ]);
    const mug = merch.find((m) => m.slug === 'awhh-emaille-becher')!;
    expect(mug).toMatchObject({ price: 9.9, regularPrice: 12, variants: [] });
  });

  it('GET /api/merch/:slug has the sanitised description; unknown slugs are a German 404', async () => {
    const shirt = merchDetailSchema.parse(json(await get('/api/merch/awhh-t-shirt')));
    expect(shirt.descriptionHtml).toContain('Bio-Baumwoll-Shirt');
    const missing = await get('/api/merch/gibt-es-nicht');
    expect(missing.statusCode).toBe(404);
    expect(apiErrorSchema.parse(json(missing)).message).toBe(
      'Diesen Artikel gibt es nicht (mehr).',
    );
    // Events are not merch.
    expect((await get('/api/merch/afterwork-dachterrasse')).statusCode).toBe(404);
  });

  it('the rules §7 feed keeps its fields and lists variation ids, not their details', async () => {
    const feed = productFeedSchema.parse(json(await get('/api/woocommerce/products')));
    const tiered = feed.find((p) => p.slug === 'sommer-afterwork-ms-hamburg')!;
    expect(tiered).toMatchObject({ type: 'variable', variations: [1091, 1092, 1093] });
    expect(tiered.date_created).toEqual(expect.any(String));
    expect(tiered.meta_data.some((m) => m.key === 'event_date')).toBe(true);
    expect(tiered).not.toHaveProperty('variants');
  });

  it('a paid demo order takes stock from the variation it bought', async () => {
    await app.get(CatalogService).createOrder({
      reference: 'ord_variant_stock',
      email: null,
      lines: [
        {
          productId: 109,
          variationId: 1093,
          name: 'Sommer-Afterwork auf der MS Hamburg – VIP',
          quantity: 3,
          unitAmount: 4900,
        },
      ],
      couponCode: null,
      total: 14700,
      currency: 'eur',
      paymentReference: 'test_variant_stock',
    });
    // The order invalidated the cached catalog; the next reads see the new stock.
    await app.get(CatalogService).currentProducts();
    const event = eventDetailSchema.parse(
      json(await get('/api/events/sommer-afterwork-ms-hamburg')),
    );
    expect(event.variants.find((v) => v.id === 1093)).toMatchObject({ available: 1 });
    expect(event.variants.find((v) => v.id === 1092)).toMatchObject({ available: 40 });
  });
});
