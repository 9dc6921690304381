import { ReconciliationService } from '../../src/orders/reconciliation.service.js';
import { newOrderService, openOrder, paymentEvent } from '../support/order-fixtures.js';

// rules "The order's life": an order still open after the provider's success redirect,
// or older than 10 minutes, is checked with the provider.

function newReconciliation(overrides: Parameters<typeof newOrderService>[0] = {}) {
  const fixture = newOrderService({ reconcileAfterMs: 10 * 60_000, ...overrides });
  const sut = new ReconciliationService(
    fixture.store.orders,
    fixture.orderService,
    fixture.payments,
    fixture.options,
  );
  return { ...fixture, sut };
}

type Fixture = ReturnType<typeof newReconciliation>;

/** Moves an order's creation into the past. */
function age(f: Fixture, orderId: string, ms: number): void {
  const order = f.data.orders.get(orderId)!;
  order.createdAt -= ms;
}

/** An order open for 20 minutes. */
async function oldOrder(f: Fixture) {
  const order = await openOrder(f);
  age(f, order.id, 20 * 60_000);
  return order;
}

describe('ReconciliationService.sweep', () => {
  it('asks about orders waiting longer than reconcileAfterMs, and only those', async () => {
    const f = newReconciliation();
    const old = await openOrder(f);
    const fresh = await openOrder(f);
    age(f, old.id, 11 * 60_000);
    f.payments.sessions.set(old.sessionId!, paymentEvent(old, 'payment.succeeded'));
    f.payments.sessions.set(fresh.sessionId!, paymentEvent(fresh, 'payment.succeeded'));
    await f.sut.sweep();
    expect(f.payments.retrieved).toEqual([old.sessionId]);
    expect(f.data.orders.get(old.id)!.status).toBe('paid');
    expect(f.data.orders.get(fresh.id)!.status).toBe('open');
    expect(f.data.jobs).toMatchObject([
      { name: 'ticket-mail', subject: old.id },
      { name: 'order-handoff', subject: old.id },
    ]);
  });

  it('an async payment still processing is asked about too, and its failure frees the places', async () => {
    const f = newReconciliation();
    const order = await oldOrder(f);
    f.payments.sessions.set(order.sessionId!, paymentEvent(order, 'payment.pending'));
    await f.sut.sweep();
    expect(f.data.orders.get(order.id)!.status).toBe('processing');
    f.payments.sessions.set(order.sessionId!, paymentEvent(order, 'payment.failed'));
    await f.sut.sweep();
    expect(f.data.orders.get(order.id)!.status).toBe('canceled');
    expect(f.data.holds.every((h) => h.released)).toBe(true);
  });

  it('one order the provider cannot answer does not stop the others', async () => {
    const f = newReconciliation();
    const first = await oldOrder(f);
    const second = await oldOrder(f);
    f.payments.sessions.set(second.sessionId!, paymentEvent(second, 'session.expired'));
    const retrieve = f.payments.retrieveSession.bind(f.payments);
    f.payments.retrieveSession = async (id) => {
      if (id === first.sessionId) throw new Error('Stripe timed out');
      return retrieve(id);
    };
    await f.sut.sweep();
    expect(f.data.orders.get(first.id)!.status).toBe('open');
    expect(f.data.orders.get(second.id)!.status).toBe('expired');
  });

  it('orders of another provider are not asked about; the batch is limited, oldest first', async () => {
    const f = newReconciliation({ reconcileBatch: 2 });
    const orders = [await oldOrder(f), await oldOrder(f), await oldOrder(f)];
    orders.forEach((o, i) => age(f, o.id, 1_000 * (3 - i)));
    f.data.orders.get(orders[0]!.id)!.provider = 'test';
    await f.sut.sweep();
    expect(f.payments.retrieved).toEqual([orders[1]!.sessionId, orders[2]!.sessionId]);
  });

  it('runs one pass at a time and none after shutdown', async () => {
    const f = newReconciliation();
    await oldOrder(f);
    await Promise.all([f.sut.sweep(), f.sut.sweep()]);
    expect(f.payments.retrieved).toHaveLength(1);
    await f.sut.onModuleDestroy();
    await f.sut.sweep();
    expect(f.payments.retrieved).toHaveLength(1);
  });
});

describe('ReconciliationService.onView (the success page)', () => {
  it('an open order is checked with the provider and shown as it is now', async () => {
    const f = newReconciliation();
    const order = await openOrder(f);
    f.payments.sessions.set(order.sessionId!, paymentEvent(order, 'payment.succeeded'));
    expect((await f.sut.onView(order)).status).toBe('paid');
  });

  it('asks about one session at most every reconcileOnViewMs', async () => {
    const f = newReconciliation({ reconcileOnViewMs: 60_000 });
    const order = await openOrder(f);
    await f.sut.onView(order);
    await f.sut.onView(order);
    expect(f.payments.retrieved).toEqual([order.sessionId]);
  });

  it('a provider that cannot answer leaves the order as stored', async () => {
    const f = newReconciliation();
    const order = await openOrder(f);
    f.payments.retrieveError = new Error('Stripe is down');
    expect(await f.sut.onView(order)).toEqual(order);
  });

  it('only open orders of this provider are asked about', async () => {
    const f = newReconciliation();
    const order = await openOrder(f);
    await f.sut.onView({ ...order, status: 'paid' });
    await f.sut.onView({ ...order, provider: 'test' });
    expect(f.payments.retrieved).toEqual([]);
  });
});
