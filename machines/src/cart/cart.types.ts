import type { CartItem, Coupon } from '../schemas/wire.schemas.js';

/** rules §9: fixed names, versioned so that a future shape can migrate. */
export const CART_STORAGE_KEY = 'awhh.cart.v1';
export const COUPON_STORAGE_KEY = 'awhh.coupon.v1';

export interface CartContext {
  items: CartItem[];
  coupon: Coupon | null;
}

/** What a page hands to `cart.add`: quantity and currency are optional. */
export type CartItemInput = Omit<CartItem, 'quantity' | 'price'> & {
  price: unknown;
  quantity?: unknown;
};

/** The server's current unit price (and stock) for a line, from a 409 answer. */
export interface LineUpdate {
  id: string;
  price: number;
  available: number | null;
}

export type CartEvent =
  | { type: 'cart.add'; item: CartItemInput; quantity?: unknown }
  | { type: 'cart.remove'; id: string }
  | { type: 'cart.setQuantity'; id: string; quantity: unknown }
  | { type: 'cart.applyCoupon'; coupon: Coupon }
  | { type: 'cart.removeCoupon' }
  | { type: 'cart.clear' }
  | { type: 'cart.update'; lines: LineUpdate[] }
  | { type: 'cart.restore' };

/** rules §3: a line's id is the product id, or productId:variationId for a variation. */
export function cartItemId(productId: number, variationId?: number | null): string {
  return variationId ? `${productId}:${variationId}` : String(productId);
}
