import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import refundsCreate from '../../../tests/support/woocommerce-11/orders.32.refunds.create.json' with { type: 'json' };
import refundsList from '../../../tests/support/woocommerce-11/orders.32.refunds.list.json' with { type: 'json' };
import { recordedShop } from '../../../tests/support/woocommerce-fixtures.js';

// The fake's refunds and order deletion against the recorded shop (woocommerce-11/
// orders.32.refunds.*): the same field set, status and headers; without line items the
// order is refunded and no stock comes back (recorded), with them and restock_items it does.

type Json = Record<string, unknown>;

describe('fake WooCommerce: refunds and deleting an order, as recorded', () => {
  let fake: FakeWooCommerce;
  beforeEach(async () => {
    fake = await FakeWooCommerce.start(recordedShop());
  });
  afterEach(async () => {
    await fake.stop();
  });

  const call = (method: string, path: string, body?: unknown) => fake.rest(method, path, body);

  async function paidOrder() {
    const created = await call('POST', '/orders', {
      set_paid: true,
      line_items: [{ product_id: 15, quantity: 1 }],
    });
    expect(created.status).toBe(201);
    return created.body as { id: number; line_items: { id: number }[] };
  }

  const stock = () => fake.products.find((p) => p.id === 15)?.stock_quantity;

  it('POST /orders/{id}/refunds without line items: 201 as recorded, the order refunded, no stock back', async () => {
    const order = await paidOrder();
    const before = stock();
    // The recorded request (`{amount, reason, api_refund: false}`) for this order's 29 €.
    const res = await call('POST', `/orders/${order.id}/refunds`, {
      ...refundsCreate.request.body,
      amount: '29.00',
    });
    expect(res.status).toBe(refundsCreate.status);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(refundsCreate.body).sort());
    expect(res.body).toMatchObject({
      amount: '29.00',
      reason: refundsCreate.body.reason,
      refunded_by: 1,
      refunded_payment: false,
      line_items: [],
    });
    // WooCommerce's broken Location header, recorded: read the body's id.
    expect(res.headers.get('location')).toMatch(
      /\/orders\/\(\?P<order_id>\[\\d\]\+\)\/refunds\/\d+$/,
    );
    expect(stock()).toBe(before);
    const after = await call('GET', `/orders/${order.id}`);
    expect(after.body.status).toBe('refunded');

    const list = await call('GET', `/orders/${order.id}/refunds`);
    expect(list.status).toBe(refundsList.status);
    expect(list.headers.get('x-wp-total')).toBe('1');
    expect(Object.keys((list.body as unknown as Json[])[0]!).sort()).toEqual(
      Object.keys(refundsList.body[0]!).sort(),
    );
  });

  it('with line items, quantities and restock_items the stock comes back; in part the order stays', async () => {
    const order = await paidOrder();
    const before = Number(stock());
    const partial = await call('POST', `/orders/${order.id}/refunds`, {
      amount: '10.00',
      api_refund: false,
      line_items: [{ id: order.line_items[0]!.id, refund_total: '10.00' }],
      restock_items: true,
    });
    expect(partial.status).toBe(201);
    expect(stock()).toBe(before);
    expect((await call('GET', `/orders/${order.id}`)).body.status).toBe('processing');
    const rest = await call('POST', `/orders/${order.id}/refunds`, {
      amount: '19.00',
      api_refund: false,
      line_items: [{ id: order.line_items[0]!.id, quantity: 1, refund_total: '19.00' }],
      restock_items: true,
    });
    expect(rest.status).toBe(201);
    expect(stock()).toBe(before + 1);
    expect((await call('GET', `/orders/${order.id}`)).body.status).toBe('refunded');
  });

  it('DELETE /orders/{id}?force=true removes a draft a refused order left', async () => {
    const refused = await call('POST', '/orders', {
      set_paid: true,
      line_items: [{ product_id: 15, quantity: 1 }],
      coupon_lines: [{ code: 'abgelaufen' }],
    });
    expect(refused.status).toBe(400);
    const draftId = (refused.body.data as { new_draft_order_id: number }).new_draft_order_id;
    expect(fake.drafts.map((d) => d.id)).toEqual([draftId]);
    const deleted = await call('DELETE', `/orders/${draftId}?force=true`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: draftId, status: 'checkout-draft' });
    expect(fake.drafts).toHaveLength(0);
    expect((await call('GET', `/orders/${draftId}`)).status).toBe(404);
  });
});
