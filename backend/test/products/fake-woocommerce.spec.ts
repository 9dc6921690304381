import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import {
  RECORDED_AT,
  RECORDINGS,
  recordedShop,
  wooCoupon,
  wooProduct,
  wooVariable,
  wpPost,
  type Recording,
  type WooOrder,
} from '../../../tests/support/woocommerce-fixtures.js';

/**
 * The test double of WooCommerce must not drift from the real thing: loaded with the
 * recorded shop, it answers every recorded request with the recorded status, headers
 * and body (tests/support/woocommerce-11/README.md).
 */

type Json = Record<string, unknown>;

/** WooCommerce draws related_ids at random for every request. */
const withoutRelated = (products: unknown) =>
  (products as Json[]).map(({ related_ids: _related, ...rest }) => rest);

const metaWithoutIds = (meta: unknown) => (meta as Json[]).map(({ id: _id, ...rest }) => rest);

/** Fields that depend on the moment and on WordPress's internal meta ids. */
function stableOrder(order: unknown): Json {
  const o = order as WooOrder;
  const moment = {} as Json;
  for (const key of Object.keys(o)) {
    if (/^date_(created|modified|paid|completed)/.test(key))
      moment[key] = o[key] === null ? null : 'moment';
  }
  return {
    ...o,
    ...moment,
    order_key: 'key',
    payment_url: 'url',
    meta_data: metaWithoutIds(o.meta_data),
    line_items: o.line_items.map((l) => ({ ...l, meta_data: metaWithoutIds(l.meta_data) })),
    coupon_lines: o.coupon_lines.map((c) => ({ ...c, meta_data: metaWithoutIds(c.meta_data) })),
  };
}

describe('fake WooCommerce against the recorded WooCommerce 11 answers', () => {
  let fake: FakeWooCommerce;
  beforeEach(async () => {
    fake = await FakeWooCommerce.start({ ...recordedShop(), now: () => RECORDED_AT });
  });
  afterEach(() => fake.stop());

  const basic = (key: string, secret: string) =>
    'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64');

  async function replay(
    recording: Recording,
    options: { path?: string; authorization?: string | null } = {},
  ) {
    const { method, body } = recording.request;
    const headers: Record<string, string> = {};
    const authorization =
      options.authorization === undefined ? basic(fake.key, fake.secret) : options.authorization;
    if (authorization !== null) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(fake.url + (options.path ?? recording.request.path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
  }

  function expectRecordedHeaders(recording: Recording, headers: Headers) {
    for (const [name, value] of Object.entries(recording.headers)) {
      expect([name, headers.get(name)]).toEqual([name, value]);
    }
  }

  it.each<[string, Recording]>([
    ['the published products, 100 a page', RECORDINGS.productsPublishP1],
    ['the ticket tiers of variable event 42', RECORDINGS.variationsTicketTiers],
    ['the sizes of variable T-shirt 28', RECORDINGS.variationsTShirt],
    ['a percent coupon asked in upper case', RECORDINGS.couponHafen20],
    ['a fixed coupon', RECORDINGS.couponFest5],
    [
      'an expired coupon (found; WooCommerce checks it only in an order)',
      RECORDINGS.couponAbgelaufen,
    ],
    ['a used-up coupon', RECORDINGS.couponAufgebraucht],
    ['a coupon with a minimum amount', RECORDINGS.couponAb50],
    ['an unknown coupon: [] and zero pages', RECORDINGS.couponGibtEsNicht],
    ['posts with _embed', RECORDINGS.postsEmbed],
    ['per_page=101: 400 rest_invalid_param', RECORDINGS.productsPerPage101],
  ])('%s: status, headers and body as recorded', async (_what, recording) => {
    const got = await replay(recording);
    expect(got.status).toBe(recording.status);
    expectRecordedHeaders(recording, got.headers);
    expect(got.body).toEqual(recording.body);
  });

  it('lists drafts unless status=publish is asked for', async () => {
    const got = await replay(RECORDINGS.productsAny);
    expect(got.status).toBe(200);
    expectRecordedHeaders(RECORDINGS.productsAny, got.headers);
    expect(withoutRelated(got.body)).toEqual(withoutRelated(RECORDINGS.productsAny.body));
    expect((got.body as Json[]).find((p) => p.id === 23)).toMatchObject({ status: 'draft' });
  });

  it('paginates with Link rel="prev"/"next" on the canonical host', async () => {
    const got = await replay(RECORDINGS.productsPublishPer5P2);
    expectRecordedHeaders(RECORDINGS.productsPublishPer5P2, got.headers);
    expect(withoutRelated(got.body)).toEqual(withoutRelated(RECORDINGS.productsPublishPer5P2.body));
  });

  it('pages 10 at a time without per_page, all statuses', async () => {
    const recording = RECORDINGS.productsDefaultPage;
    const got = await replay(recording);
    expect(got.status).toBe(200);
    expectRecordedHeaders(recording, got.headers);
    expect(withoutRelated(got.body)).toEqual(withoutRelated(recording.body));
  });

  it('answers [] past the last page on /wc/v3, but 400 on /wp/v2/posts', async () => {
    const products = await replay(RECORDINGS.productsPublishP1, {
      path: '/wp-json/wc/v3/products?status=publish&per_page=100&page=2',
    });
    expect(products.status).toBe(200);
    expect(products.body).toEqual([]);
    expect(products.headers.get('x-wp-total')).toBe('12');
    const posts = await replay(RECORDINGS.postsEmbed, {
      path: '/wp-json/wp/v2/posts?per_page=100&page=2',
    });
    expect(posts.status).toBe(400);
    expect(posts.body).toMatchObject({ code: 'rest_post_invalid_page_number' });
  });

  it('answers unknown products and routes with the recorded 404 bodies', async () => {
    const product = await replay(RECORDINGS.productsUnknownId, {
      path: '/wp-json/wc/v3/products/99999',
    });
    expect(product.status).toBe(404);
    expectRecordedHeaders(RECORDINGS.productsUnknownId, product.headers);
    expect(product.body).toEqual(RECORDINGS.productsUnknownId.body);
    const route = await replay(RECORDINGS.routeUnknown, { path: '/wp-json/wc/v3/gibt-es-nicht' });
    expect(route.status).toBe(404);
    expectRecordedHeaders(RECORDINGS.routeUnknown, route.headers);
    expect(route.body).toEqual(RECORDINGS.routeUnknown.body);
  });

  it('refuses a wrong secret with the recorded 401 body', async () => {
    const got = await replay(RECORDINGS.authWrongSecret, {
      authorization: basic(fake.key, 'cs_falsch'),
    });
    expect(got.status).toBe(401);
    expectRecordedHeaders(RECORDINGS.authWrongSecret, got.headers);
    expect(got.body).toEqual(RECORDINGS.authWrongSecret.body);
    const without = await replay(RECORDINGS.authWrongSecret, { authorization: null });
    expect(without.status).toBe(401);
  });

  it('creates the recorded paid order: coupon spread over the lines, stock and usage counted', async () => {
    const created = await replay(RECORDINGS.ordersCreatePaid);
    expect(created.status).toBe(201);
    expectRecordedHeaders(RECORDINGS.ordersCreatePaid, created.headers);
    expect(stableOrder(created.body)).toEqual(stableOrder(RECORDINGS.ordersCreatePaid.body));

    const product = await replay(RECORDINGS.productAfterStockChange);
    const moment = { date_modified: 'moment', date_modified_gmt: 'moment', related_ids: [] };
    expect({ ...(product.body as Json), ...moment }).toEqual({
      ...(RECORDINGS.productAfterStockChange.body as Json),
      ...moment,
    });

    const vip = fake.variationsOf(42).find((v) => v.id === 45);
    expect(vip).toMatchObject({ stock_quantity: 3, stock_status: 'instock' });
    expect(fake.coupons.find((c) => c.code === 'fest5')).toMatchObject({
      usage_count: 2,
      used_by: ['test@example.org', 'karla@example.org'],
    });

    const list = await replay(RECORDINGS.ordersList);
    expectRecordedHeaders(RECORDINGS.ordersList, list.headers);
    expect((list.body as unknown[]).map(stableOrder)).toEqual(
      (RECORDINGS.ordersList.body as unknown[]).map(stableOrder),
    );
  });

  it('refuses an expired coupon with the escaped message and a left-over draft order', async () => {
    await replay(RECORDINGS.ordersCreatePaid);
    const refused = await replay(RECORDINGS.ordersCreateExpiredCoupon);
    expect(refused.status).toBe(400);
    expectRecordedHeaders(RECORDINGS.ordersCreateExpiredCoupon, refused.headers);
    expect(refused.body).toEqual(RECORDINGS.ordersCreateExpiredCoupon.body);
    expect(fake.drafts.map((d) => [d.id, d.status])).toEqual([[47, 'checkout-draft']]);
    // The draft is no sale: stock of product 15 stays where the paid order left it.
    expect(fake.products.find((p) => p.id === 15)?.stock_quantity).toBe(2);
  });

  async function postOrder(body: Json) {
    const res = await fetch(`${fake.url}/wp-json/wc/v3/orders`, {
      method: 'POST',
      headers: { authorization: basic(fake.key, fake.secret), 'content-type': 'application/json' },
      body: JSON.stringify({ set_paid: true, ...body }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  it('refuses used-up and below-minimum coupons the same way, accepts a valid one', async () => {
    const withCoupon = (code: string) =>
      postOrder({ line_items: [{ product_id: 15, quantity: 1 }], coupon_lines: [{ code }] });
    await expect(withCoupon('AUFGEBRAUCHT')).resolves.toMatchObject({
      status: 400,
      body: {
        code: 'woocommerce_rest_invalid_coupon',
        message: 'Usage limit for coupon &quot;aufgebraucht&quot; has been reached.',
      },
    });
    await expect(withCoupon('ab50')).resolves.toMatchObject({
      status: 400,
      body: {
        message: expect.stringMatching(/^The minimum spend for coupon &quot;ab50&quot; is /),
      },
    });
    await expect(withCoupon('HAFEN20')).resolves.toMatchObject({
      status: 201,
      body: { status: 'processing', discount_total: '5.80', total: '23.20' },
    });
    expect(fake.drafts).toHaveLength(2);
  });

  it('sells past zero: the REST API does not enforce stock', async () => {
    const { status, body } = await postOrder({
      line_items: [{ product_id: 42, variation_id: 43, quantity: 2 }],
    });
    expect(status).toBe(201);
    expect((body as WooOrder).line_items[0]).toMatchObject({
      name: 'Sommer-Afterwork auf der MS Hamburg - Early Bird',
      parent_name: 'Sommer-Afterwork auf der MS Hamburg',
      variation_id: 43,
      total: '50.00',
    });
    expect(fake.variationsOf(42).find((v) => v.id === 43)).toMatchObject({
      stock_quantity: -2,
      stock_status: 'outofstock',
    });
  });
});

describe('fake WooCommerce builders have the recorded field set', () => {
  const recorded = RECORDINGS.productsPublishP1.body as Json[];
  const keys = (value: unknown) => Object.keys(value as Json).sort();

  it('a simple product, a variable product and its variations', () => {
    expect(keys(wooProduct(1))).toEqual(keys(recorded.find((p) => p.id === 15)));
    const shirt = wooVariable(2, { name: 'Shirt', attribute: 'Größe' }, [
      { id: 3, option: 'M', price: '25.00', stock_quantity: 5 },
    ]);
    expect(keys(shirt.product)).toEqual(keys(recorded.find((p) => p.id === 28)));
    const recordedVariation = (RECORDINGS.variationsTShirt.body as Json[])[0]!;
    expect(keys(shirt.variations[0])).toEqual(keys(recordedVariation));
    expect(shirt.variations[0]!.attributes).toEqual([
      { id: 0, name: 'Größe', slug: 'grose', option: 'M' },
    ]);
  });

  it('a coupon (code lower-case) and a post', () => {
    const coupon = wooCoupon('SOMMER10');
    expect(keys(coupon)).toEqual(keys((RECORDINGS.couponHafen20.body as Json[])[0]));
    expect(coupon.code).toBe('sommer10');
    expect(keys(wpPost(1))).toEqual(keys((RECORDINGS.postsEmbed.body as Json[])[0]));
  });
});
