import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import afterRefund from '../../../tests/support/woocommerce-11/orders.third.line-refund.after.json' with { type: 'json' };
import refundCreate from '../../../tests/support/woocommerce-11/orders.third.line-refund.create.json' with { type: 'json' };
import refundList from '../../../tests/support/woocommerce-11/orders.third.line-refund.list.json' with { type: 'json' };
import afterTrash from '../../../tests/support/woocommerce-11/orders.third.after-trash.json' with { type: 'json' };
import trash from '../../../tests/support/woocommerce-11/orders.third.trash.json' with { type: 'json' };
import twoLines from '../../../tests/support/woocommerce-11/orders.third.two-lines.json' with { type: 'json' };
import { recordedShop } from '../../../tests/support/woocommerce-fixtures.js';

// The fake against the third recording (woocommerce-11/orders.third.*, a real WooCommerce
// 10 shop): a refund of one line with restock, what the order and the stock look like
// afterwards, and the trash. The recorded shop's ids differ from the fake's, so the same
// requests run against the fake's own event and tier, and the answers are compared by
// their field sets and by what WooCommerce did.

type Json = Record<string, unknown>;
type Meta = { key: string; value: unknown };

describe('fake WooCommerce: a refund of one line, and the trash, as recorded', () => {
  let fake: FakeWooCommerce;
  beforeEach(async () => {
    fake = await FakeWooCommerce.start(recordedShop());
  });
  afterEach(async () => {
    await fake.stop();
  });

  const call = (method: string, path: string, body?: unknown) => fake.rest(method, path, body);

  /** The recorded request: 2 × a tier (Regulär 44 here) and 1 × a simple event (15), paid. */
  async function twoLineOrder() {
    const recorded = twoLines.request.body as Json & { line_items: Json[] };
    const created = await call('POST', '/orders', {
      ...recorded,
      line_items: [
        { product_id: 42, variation_id: 44, quantity: 2 },
        { product_id: 15, quantity: 1 },
      ],
    });
    expect(created.status).toBe(twoLines.status);
    return created.body as {
      id: number;
      total: string;
      line_items: { id: number; total: string }[];
    };
  }

  const tier = () => fake.variations.find((v) => v.id === 44)!;
  const metaOf = (line: Json) => (line.meta_data as Meta[]).map((m) => [m.key, m.value]);

  it('a refund of one unit of a line with restock_items: the refund line has quantity −1 and _refunded_item_id, the order stays processing with its total, one unit back in stock', async () => {
    const order = await twoLineOrder();
    const stock = tier().stock_quantity!;
    const line = order.line_items[0]!;
    const res = await call('POST', `/orders/${order.id}/refunds`, {
      ...refundCreate.request.body,
      line_items: [{ id: line.id, quantity: 1, refund_total: Number(line.total) / 2 }],
    });
    expect(res.status).toBe(refundCreate.status);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(refundCreate.body).sort());
    const [refundLine] = res.body.line_items as Json[];
    const [recordedLine] = refundCreate.body.line_items as Json[];
    expect(refundLine).toMatchObject({ quantity: recordedLine!.quantity });
    expect(metaOf(refundLine!)).toEqual([['_refunded_item_id', String(line.id)]]);
    expect(tier().stock_quantity).toBe(stock + 1);

    const after = await call('GET', `/orders/${order.id}`);
    // Recorded: still processing, its total unchanged, the refund only in `refunds`.
    expect(after.body.status).toBe(afterRefund.body.status);
    expect(after.body.total).toBe(order.total);
    expect((after.body.refunds as Json[]).map((r) => Object.keys(r).sort())).toEqual(
      (afterRefund.body.refunds as Json[]).map((r) => Object.keys(r).sort()),
    );
    // The line keeps its quantity; _reduced_stock goes down by the unit, the restock is tallied.
    const refunded = (after.body.line_items as Json[])[0]!;
    const recorded = (afterRefund.body.line_items as Json[])[0]!;
    expect(refunded.quantity).toBe(recorded.quantity);
    expect(metaOf(refunded).filter(([key]) => String(key).startsWith('_'))).toEqual(
      metaOf(recorded).filter(([key]) => String(key).startsWith('_')),
    );

    const list = await call('GET', `/orders/${order.id}/refunds`);
    expect((list.body as unknown as Json[]).map((r) => Object.keys(r).sort())).toEqual(
      (refundList.body as Json[]).map((r) => Object.keys(r).sort()),
    );
  });

  it('restock of a line whose stock went back already (cancelled) restocks nothing; more than is left to refund is refused', async () => {
    const order = await twoLineOrder();
    const stock = tier().stock_quantity!;
    await call('PUT', `/orders/${order.id}`, { status: 'cancelled' });
    expect(tier().stock_quantity).toBe(stock + 2);
    const line = order.line_items[0]!;
    const zero = await call('POST', `/orders/${order.id}/refunds`, {
      amount: '0.00',
      api_refund: false,
      restock_items: true,
      line_items: [{ id: line.id, quantity: 2, refund_total: 0 }],
    });
    expect(zero.status).toBe(201);
    expect(tier().stock_quantity).toBe(stock + 2);
    const tooMuch = await call('POST', `/orders/${order.id}/refunds`, {
      amount: '500.00',
      api_refund: false,
    });
    expect(tooMuch.status).toBe(500);
    expect(tooMuch.body).toMatchObject({ message: 'Invalid refund amount.' });
  });

  it('DELETE /orders/{id} without force: the answer is the order as it was, the order is in the trash, no stock back', async () => {
    const order = await twoLineOrder();
    const stock = tier().stock_quantity!;
    const res = await call('DELETE', `/orders/${order.id}`);
    expect(res.status).toBe(trash.status);
    expect(res.body.status).toBe(trash.body.status);
    const after = await call('GET', `/orders/${order.id}`);
    expect(after.body.status).toBe(afterTrash.body.status);
    expect(tier().stock_quantity).toBe(stock);
  });
});
