import { createActor, fromPromise, waitFor } from 'xstate';
import type { Coupon, CouponValidationRequest } from '../schemas/wire.schemas.js';
import { couponLinesKey } from '../pricing/pricing.js';
import {
  COUPON_EMPTY_MESSAGE,
  COUPON_FALLBACK_MESSAGE,
  COUPON_RECHECK_DELAY_MS,
  couponMachine,
} from './coupon.machine.js';

/** A refusal as the API client throws it: a German message and the HTTP status. */
function refusal(message: string, status = 422) {
  return Object.assign(new Error(message), { status });
}

function start(validate: (req: CouponValidationRequest) => Promise<Coupon>, coupon?: Coupon) {
  const calls: CouponValidationRequest[] = [];
  const machine = couponMachine.provide({
    delays: { recheckDelay: 10 },
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
    expect(actor.getSnapshot().matches('applied')).toBe(true);
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

  describe('rules "Coupons": the server\'s discount on the cart\'s lines', () => {
    const vip = [{ productId: 1090, variationId: 1093, quantity: 1 }];
    const regular = [{ productId: 1090, variationId: 1091, quantity: 2 }];
    const nurvip = { code: 'NURVIP', discountType: 'percent', discount: 50 };

    it('sends the lines and keeps the server figure with the key of those lines', async () => {
      const { actor, calls, emitted } = start(async () => ({ ...nurvip, discountCents: 2450 }));
      actor.send({ type: 'coupon.apply', code: 'NURVIP', subtotal: 49, lines: vip });
      await waitFor(actor, (s) => s.matches('applied'));
      expect(calls).toEqual([{ code: 'NURVIP', subtotal: 49, lines: vip }]);
      expect(actor.getSnapshot().context.coupon).toEqual({
        ...nurvip,
        discountCents: 2450,
        linesKey: couponLinesKey(vip),
      });
      expect(emitted).toEqual(['coupon.applied']);
    });

    it("refuses a coupon with the server's reason for these lines", async () => {
      const reason = 'Dieser Gutschein gilt nur für „Sommer-After-Work – VIP“.';
      const { actor } = start(() => Promise.reject(refusal(reason)));
      actor.send({ type: 'coupon.apply', code: 'NURVIP', subtotal: 30, lines: regular });
      await waitFor(actor, (s) => s.matches('rejected'));
      expect(actor.getSnapshot().context.error).toBe(reason);
      expect(actor.getSnapshot().context.coupon).toBeNull();
    });

    it('checks again once the cart has been still, with the last lines only', async () => {
      let n = 0;
      const { actor, calls, emitted } = start(
        async () => ({ ...nurvip, discountCents: 1000 * ++n }),
        { ...nurvip, discountCents: 2450, linesKey: couponLinesKey(vip) },
      );
      const two = [{ ...vip[0]!, quantity: 2 }];
      const three = [{ ...vip[0]!, quantity: 3 }];
      actor.send({ type: 'coupon.cartChanged', subtotal: 98, lines: two });
      actor.send({ type: 'coupon.cartChanged', subtotal: 147, lines: three });
      expect(actor.getSnapshot().matches({ applied: 'pending' })).toBe(true);
      expect(calls).toEqual([]);
      await waitFor(actor, (s) => s.matches({ applied: 'rechecking' }));
      await waitFor(actor, (s) => s.matches({ applied: 'settled' }));
      expect(calls).toEqual([{ code: 'NURVIP', subtotal: 147, lines: three }]);
      expect(actor.getSnapshot().context.coupon).toEqual({
        ...nurvip,
        discountCents: 1000,
        linesKey: couponLinesKey(three),
      });
      expect(emitted).toEqual(['coupon.applied']);
    });

    it('a refusal after the cart changed removes the coupon with its reason', async () => {
      const reason = 'Dieser Gutschein gilt nur für „Sommer-After-Work – VIP“.';
      const { actor, emitted } = start(() => Promise.reject(refusal(reason)), nurvip);
      actor.send({ type: 'coupon.cartChanged', subtotal: 30, lines: regular });
      await waitFor(actor, (s) => s.matches('rejected'));
      expect(actor.getSnapshot().context).toMatchObject({ coupon: null, error: reason });
      expect(emitted).toEqual(['coupon.removed']);
    });

    it('a failure to ask keeps the applied coupon and says so', async () => {
      const { actor, emitted } = start(
        () => Promise.reject(refusal('Der Server ist gerade nicht erreichbar.', 0)),
        nurvip,
      );
      actor.send({ type: 'coupon.cartChanged', subtotal: 49, lines: vip });
      await waitFor(actor, (s) => s.matches({ applied: 'rechecking' }));
      await waitFor(actor, (s) => s.matches({ applied: 'settled' }));
      expect(actor.getSnapshot().context).toMatchObject({
        coupon: nurvip,
        error: 'Der Server ist gerade nicht erreichbar.',
      });
      expect(emitted).toEqual([]);
    });

    it('a changed cart without a coupon asks nothing', async () => {
      const { actor, calls } = start(async () => nurvip);
      actor.send({ type: 'coupon.cartChanged', subtotal: 49, lines: vip });
      await new Promise((r) => setTimeout(r, 30));
      expect(actor.getSnapshot().value).toBe('idle');
      expect(calls).toEqual([]);
    });

    it('waits a moment that a typing visitor does not notice', () => {
      expect(COUPON_RECHECK_DELAY_MS).toBeGreaterThanOrEqual(200);
      expect(COUPON_RECHECK_DELAY_MS).toBeLessThanOrEqual(1000);
    });
  });
});
