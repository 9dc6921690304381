import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import {
  cartTotals,
  couponLinesKey,
  type CartItem,
  type Coupon,
  type CouponValidationLine,
} from '@awhh/machines';
import { getCartActor, type CartActor } from './cart-actor';

// Narrow selectors: a component re-renders only when its slice changes.
const selectItems = (s: ReturnType<CartActor['getSnapshot']>) => s.context.items;
const selectCoupon = (s: ReturnType<CartActor['getSnapshot']>) => s.context.coupon;

export function useCartActor(): CartActor {
  return getCartActor();
}

export function useCartItems(): CartItem[] {
  return useSelector(getCartActor(), selectItems);
}

export function useCartCoupon(): Coupon | null {
  return useSelector(getCartActor(), selectCoupon);
}

/** Subtotal, discount and total in cents (rules §9 via the shared pricing). */
export function useCartTotals() {
  const items = useCartItems();
  const coupon = useCartCoupon();
  return useMemo(() => cartTotals(items, coupon), [items, coupon]);
}

/** The cart's lines as the server checks a coupon on them (rules "Coupons"). */
export function couponLinesOf(items: readonly CartItem[]): CouponValidationLine[] {
  return items.flatMap((item) =>
    item.productId === undefined
      ? []
      : [
          {
            productId: item.productId,
            ...(item.variationId !== undefined ? { variationId: item.variationId } : {}),
            quantity: item.quantity,
          },
        ],
  );
}

/** The lines for the coupon check and their key; a new key asks the server again. */
export function useCouponLines(): { lines: CouponValidationLine[]; key: string } {
  const items = useCartItems();
  return useMemo(() => {
    const lines = couponLinesOf(items);
    return { lines, key: couponLinesKey(lines) };
  }, [items]);
}
