import { createActor, fromPromise, waitFor } from 'xstate';
import type { Coupon, CouponValidationRequest } from '../schemas/wire.schemas.js';
import { COUPON_EMPTY_MESSAGE, COUPON_FALLBACK_MESSAGE, couponMachine } from './coupon.machine.js';

function start(validate: (req: CouponValidationRequest) => Promise<Coupon>, coupon?: Coupon) {
  const calls: CouponValidationRequest[] = [];
  const machine = couponMachine.provide({
    actors: {
      validateCoupon: fromPromise(({ input }: { input: CouponValidationRequest }) => {
        calls.push(input);
        return validate(input);
      }),
    },
  });
  const actor = createActor(machine, { input: { coupon } });
  const emitted: string[] = [];
  actor.on('*', (e) => emitted.push(e.type));
  actor.start();
  return { actor, calls, emitted };
}

describe('coupon machine', () => {
  it('validates an entered code and applies the coupon the server returns', async () => {
    const coupon = { code: 'afterwork10', discountType: 'percent', discount: 10 };
    const { actor, calls, emitted } = start(async () => coupon);
    actor.send({ type: 'coupon.apply', code: '  afterwork10 ', subtotal: 38 });
    expect(actor.getSnapshot().value).toBe('validating');
    await waitFor(actor, (s) => s.matches('applied'));
    expect(calls).toEqual([{ code: 'afterwork10', subtotal: 38 }]);
    expect(actor.getSnapshot().context.coupon).toEqual(coupon);
    expect(emitted).toEqual(['coupon.applied']);
  });

  it("rejects with the server's German message", async () => {
    const { actor } = start(async () => {
      throw new Error('Dieser Gutschein ist abgelaufen.');
    });
    actor.send({ type: 'coupon.apply', code: 'SOMMER24' });
    await waitFor(actor, (s) => s.matches('rejected'));
    expect(actor.getSnapshot().context.error).toBe('Dieser Gutschein ist abgelaufen.');
  });

  it('falls back to a generic German message when the failure has none', async () => {
    const { actor } = start(() => Promise.reject(new Error('')));
    actor.send({ type: 'coupon.apply', code: 'X' });
    await waitFor(actor, (s) => s.matches('rejected'));
    expect(actor.getSnapshot().context.error).toBe(COUPON_FALLBACK_MESSAGE);
  });

  it('an empty code is rejected without asking the server', () => {
    const { actor, calls } = start(async () => ({ discountType: 'percent', discount: 1 }));
    actor.send({ type: 'coupon.apply', code: '   ' });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(actor.getSnapshot().context.error).toBe(COUPON_EMPTY_MESSAGE);
    expect(calls).toEqual([]);
  });

  it('starts as applied when the cart already holds a coupon, and removes it', () => {
    const coupon = { code: 'a', discountType: 'fixed_cart', discount: 5 };
    const { actor, emitted } = start(async () => coupon, coupon);
    expect(actor.getSnapshot().value).toBe('applied');
    actor.send({ type: 'coupon.remove' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.coupon).toBeNull();
    expect(emitted).toEqual(['coupon.removed']);
  });

  it('a new code replaces an applied coupon', async () => {
    let n = 0;
    const { actor } = start(async ({ code }) => ({ code, discountType: 'percent', discount: ++n }));
    actor.send({ type: 'coupon.apply', code: 'one' });
    await waitFor(actor, (s) => s.matches('applied'));
    actor.send({ type: 'coupon.apply', code: 'two' });
    await waitFor(actor, (s) => s.matches('applied'));
    expect(actor.getSnapshot().context.coupon).toEqual({
      code: 'two',
      discountType: 'percent',
      discount: 2,
    });
  });
});
