import {
  initialOrder,
  transitionOrder,
  type OrderContext,
  type OrderEvent,
  type OrderStatus,
} from './order.machine.js';

// rules "Hand-off refused" and "Refunds reach the shop": the order machine keeps
// WooCommerce's reason for a refused hand-off, hands it off again on request, and asks for
// the shop's refund whenever money goes back at the provider.

const TOTALS = { subtotal: 9800, discount: 0, total: 9800 };

function paidOrder(): { status: OrderStatus; context: OrderContext } {
  const open = initialOrder(TOTALS);
  const paid = transitionOrder(open.status, open.context, {
    type: 'payment.succeeded',
    reservationHeld: true,
    capacityRemains: true,
    paymentReference: 'pi_1',
  });
  return { status: paid.status, context: paid.context };
}

function send(order: { status: OrderStatus; context: OrderContext }, event: OrderEvent) {
  return transitionOrder(order.status, order.context, event);
}

describe('order machine: rules "Hand-off refused"', () => {
  const refused: OrderEvent = { type: 'handoff.failed', reason: 'Gutschein abgelaufen' };

  it('rules "Hand-off refused": a refused hand-off keeps the order paid with the reason and tells the organizer', () => {
    const failed = send(paidOrder(), refused);
    expect(failed.status).toBe('paid');
    expect(failed.changed).toBe(true);
    expect(failed.context.handoffError).toBe('Gutschein abgelaufen');
    expect(failed.effects).toEqual(['handoff.reportFailure']);
    // The same refusal again (a job run twice) tells nobody twice.
    expect(send(failed, refused)).toMatchObject({ changed: false, effects: [] });
  });

  it('rules "Hand-off refused": one request hands it off again; the success clears the reason', () => {
    const failed = send(paidOrder(), refused);
    const retried = send(failed, { type: 'handoff.retry' });
    expect(retried).toMatchObject({ status: 'paid', effects: ['handoff.retry'] });
    expect(retried.context.handoffError).toBeNull();
    const handedOff = send(retried, { type: 'handoff.succeeded', catalogOrderId: '51' });
    expect(handedOff.status).toBe('handedOff');
    expect(handedOff.context.handoffError).toBeNull();
  });

  it('rules "Hand-off refused": nothing to retry without a refusal, nor after the order left paid', () => {
    expect(send(paidOrder(), { type: 'handoff.retry' })).toMatchObject({ changed: false });
    const refunded = send(send(paidOrder(), refused), {
      type: 'payment.refunded',
      refundReference: 're_1',
    });
    expect(refunded.status).toBe('refunded');
    expect(send(refunded, { type: 'handoff.retry' })).toMatchObject({ changed: false });
  });

  it('rules "Hand-off refused": a handed-off order cannot be refused any more', () => {
    const handedOff = send(paidOrder(), { type: 'handoff.succeeded', catalogOrderId: '51' });
    expect(send(handedOff, refused)).toMatchObject({ changed: false, effects: [] });
  });
});

describe('order machine: rules "Refunds reach the shop"', () => {
  const handedOff = () => {
    const next = send(paidOrder(), { type: 'handoff.succeeded', catalogOrderId: '51' });
    return { status: next.status, context: next.context };
  };

  it('rules "Refunds reach the shop": a full refund asks for the shop\'s refund of the whole total', () => {
    const refunded = send(handedOff(), { type: 'payment.refunded', refundReference: 're_1' });
    expect(refunded.status).toBe('refunded');
    expect(refunded.context.refundedAmount).toBe(9800);
    expect(refunded.effects).toEqual(
      expect.arrayContaining(['tickets.revoke', 'reservation.release', 'shop.refund']),
    );
  });

  it('rules "Refunds": a partial refund keeps the order, revokes only the tickets it covers in whole, and only more money is news', () => {
    const partly = send(handedOff(), {
      type: 'payment.partiallyRefunded',
      refundReference: 're_1',
      amountRefunded: 4900,
    });
    // The backend picks the tickets the amount covers (none when it covers no whole ticket);
    // the order's other tickets stay valid.
    expect(partly).toMatchObject({
      status: 'handedOff',
      effects: ['tickets.revokeRefunded', 'shop.refund'],
    });
    expect(partly.context).toMatchObject({ refundedAmount: 4900, refundReference: 're_1' });
    // The same report again changes nothing.
    expect(
      send(partly, {
        type: 'payment.partiallyRefunded',
        refundReference: 're_1',
        amountRefunded: 4900,
      }),
    ).toMatchObject({ changed: false });
    const rest = send(partly, { type: 'payment.refunded', refundReference: 're_2' });
    expect(rest).toMatchObject({ status: 'refunded' });
    expect(rest.effects).toContain('shop.refund');
  });

  it('rules "Refunds reach the shop": a late payment refunded by the site itself never reached the shop', () => {
    const open = initialOrder(TOTALS);
    const pending = transitionOrder(open.status, open.context, {
      type: 'payment.succeeded',
      reservationHeld: false,
      capacityRemains: false,
      paymentReference: 'pi_1',
    });
    const refunded = send(pending, { type: 'refund.succeeded', refundReference: 're_1' });
    expect(refunded.status).toBe('refunded');
    expect(refunded.effects).not.toContain('shop.refund');
  });
});
