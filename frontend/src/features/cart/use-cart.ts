import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import { cartTotals, type CartItem, type Coupon } from '@awhh/machines';
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
