import { fromPromise } from 'xstate';
import { couponMachine, type Coupon, type CouponValidationRequest } from '@awhh/machines';
import { apiPost } from '@/lib/api-client';

export const COUPON_VALIDATE_URL = '/api/coupons/validate';

export function validateCoupon(request: CouponValidationRequest): Promise<Coupon> {
  return apiPost<Coupon>(COUPON_VALIDATE_URL, request);
}

/**
 * The shared coupon machine with the server as its judge (rules "Coupons"). The server
 * answers with the catalog's spelling ("hafen20"); the cart keeps the code as the visitor
 * typed it ("Hafen20"), because pages show it that way (rules "Everything the shop sells").
 * The server finds the coupon case-insensitively at checkout and hands WooCommerce its own.
 */
export const liveCouponMachine = couponMachine.provide({
  actors: {
    validateCoupon: fromPromise<Coupon, CouponValidationRequest>(async ({ input }) => ({
      ...(await validateCoupon(input)),
      code: input.code,
    })),
  },
});
