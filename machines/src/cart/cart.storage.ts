import { MAX_LINE_QUANTITY, normalizePrice, normalizeQuantity } from '../pricing/pricing.js';
import type { CartItem, Coupon } from '../schemas/wire.schemas.js';
import type { KeyValueStorage } from '../storage/storage.js';
import {
  CART_STORAGE_KEY,
  COUPON_STORAGE_KEY,
  type CartContext,
  type CartItemInput,
} from './cart.types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function optionalId(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * rules §3 normalisation of one line: price not numeric → 0, quantity whole (default 1).
 * Returns null for something that cannot be a line (no id or name, quantity below 1).
 */
export function normalizeCartItem(raw: unknown, quantity?: unknown): CartItem | null {
  if (!isRecord(raw)) return null;
  const input = raw as Partial<CartItemInput>;
  const id = typeof input.id === 'string' || typeof input.id === 'number' ? String(input.id) : '';
  const name = typeof input.name === 'string' ? input.name : '';
  if (id === '' || name === '') return null;
  const qty = normalizeQuantity(quantity ?? input.quantity);
  if (qty < 1) return null;
  const item: CartItem = { id, name, price: normalizePrice(input.price), quantity: qty };
  const image = optionalText(input.image);
  const currency = optionalText(input.currency);
  const productId = optionalId(input.productId);
  const variationId = optionalId(input.variationId);
  if (image) item.image = image;
  if (currency) item.currency = currency;
  if (productId) item.productId = productId;
  if (variationId) item.variationId = variationId;
  const maxPerOrder = optionalId(input.maxPerOrder);
  if (maxPerOrder) item.maxPerOrder = maxPerOrder;
  return item;
}

export function normalizeCoupon(raw: unknown): Coupon | null {
  if (!isRecord(raw) || typeof raw.discountType !== 'string') return null;
  const discount = normalizePrice(raw.discount);
  const coupon: Coupon = { discountType: raw.discountType, discount };
  if (typeof raw.code === 'string' && raw.code !== '') coupon.code = raw.code;
  // The server's discount for the lines it names (rules "Coupons"), kept only whole.
  if (
    typeof raw.discountCents === 'number' &&
    Number.isInteger(raw.discountCents) &&
    raw.discountCents >= 0 &&
    typeof raw.linesKey === 'string'
  ) {
    coupon.discountCents = raw.discountCents;
    coupon.linesKey = raw.linesKey;
  }
  if (raw.needsEmail === true) coupon.needsEmail = true;
  return coupon;
}

function readJson(storage: KeyValueStorage, key: string): unknown {
  try {
    const text = storage.getItem(key);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** rules §4: the saved cart, or an empty one when absent or invalid; never throws. */
export function readCart(storage: KeyValueStorage): CartContext {
  const rawItems = readJson(storage, CART_STORAGE_KEY);
  const items: CartItem[] = [];
  if (Array.isArray(rawItems)) {
    for (const raw of rawItems) {
      const item = normalizeCartItem(raw);
      if (!item) continue;
      const existing = items.find((i) => i.id === item.id);
      if (existing)
        existing.quantity = Math.min(existing.quantity + item.quantity, MAX_LINE_QUANTITY);
      else items.push(item);
    }
  }
  return { items, coupon: normalizeCoupon(readJson(storage, COUPON_STORAGE_KEY)) };
}

/** rules §4/§9: every change is saved; a full or blocked storage must not break the cart. */
export function writeCart(storage: KeyValueStorage, context: CartContext): void {
  try {
    storage.setItem(CART_STORAGE_KEY, JSON.stringify(context.items));
    if (context.coupon) storage.setItem(COUPON_STORAGE_KEY, JSON.stringify(context.coupon));
    else storage.removeItem(COUPON_STORAGE_KEY);
  } catch {
    // Private mode or quota: the cart keeps working in memory for this page.
  }
}
