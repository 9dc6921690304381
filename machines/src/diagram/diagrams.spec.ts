import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { machineDiagrams } from './diagrams.js';

describe('statechart diagrams in docs/', () => {
  it.each(machineDiagrams().map((d) => [d.file, d.content]))(
    'docs/machines/%s matches the machine definition (run npm run machines:diagram)',
    (file, content) => {
      const checkedIn = readFileSync(
        join(__dirname, '..', '..', '..', 'docs', 'machines', file),
        'utf8',
      );
      expect(checkedIn).toBe(content);
    },
  );

  it('draws the states and events of the cart', () => {
    const cart = machineDiagrams().find((d) => d.file === 'cart.md')!.content;
    expect(cart).toContain('cart_empty --> cart_filled : always [hasItems]');
    expect(cart).toContain('cart.add');
  });

  it('draws the states, guards and final states of the order', () => {
    const order = machineDiagrams().find((d) => d.file === 'order.md')!.content;
    expect(order).toContain('order_created --> order_paid : always [isFree]');
    expect(order).toContain('order_open --> order_paid : payment.succeeded [hasHeldReservation]');
    expect(order).toContain(
      'order_expired --> order_latePaymentAccepted : payment.succeeded [hasCapacityForLatePayment]',
    );
    expect(order).toContain('order_expired --> order_refundPending : payment.succeeded');
    expect(order).toContain(
      'order_handedOff --> order_refunded : payment.refunded [wasPaidAtProvider]',
    );
    expect(order).not.toContain('order_handedOff --> [*]');
    expect(order).toContain('order_refunded --> [*]');
  });

  it('draws a ticket given back beside the order (rules "Giving a ticket back")', () => {
    const order = machineDiagrams().find((d) => d.file === 'order.md')!.content;
    expect(order).toContain('## A ticket given back (ticketReturnMachine)');
    expect(order).toContain('ticketReturn_offered --> ticketReturn_taken : return.take');
    expect(order).toContain('ticketReturn_taken --> ticketReturn_refunded : return.refunded');
  });
});
