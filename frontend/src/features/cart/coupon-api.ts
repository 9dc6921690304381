import { fromPromise } from 'xstate';
import { couponMachine, type Coupon, type CouponValidationRequest } from '@awhh/machines';
import { api } from '@/config/paths';
import { apiPost } from '@/lib/api-client';

export function validateCoupon(request: CouponValidationRequest): Promise<Coupon> {
  return apiPost<Coupon>(api.couponValidate, request);
}

/** The shared coupon machine with the server as its judge (DESIGN "Coupons"). */
export const liveCouponMachine = couponMachine.provide({
  actors: {
    validateCoupon: fromPromise<Coupon, CouponValidationRequest>(({ input }) =>
      validateCoupon(input),
    ),
  },
});
