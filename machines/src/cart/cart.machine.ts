import { assign, not, setup } from 'xstate';
import { normalizePrice, normalizeQuantity } from '../pricing/pricing.js';
import { createMemoryStorage, type KeyValueStorage } from '../storage/storage.js';
import { clampToLimit } from './cart.limits.js';
import { normalizeCartItem, normalizeCoupon, readCart, writeCart } from './cart.storage.js';
import type { CartContext, CartEvent } from './cart.types.js';

/**
 * The cart of rules §4. The storage adapter is injected: localStorage in the browser,
 * memory in tests. Every transition that changes the context ends in `persist`.
 */
export function createCartMachine(storage: KeyValueStorage) {
  return setup({
    types: {
      context: {} as CartContext,
      events: {} as CartEvent,
    },
    actions: {
      addItem: assign({
        items: ({ context, event }) => {
          if (event.type !== 'cart.add') return context.items;
          const incoming = normalizeCartItem(event.item, event.quantity ?? 1);
          if (!incoming) return context.items;
          const existing = context.items.find((i) => i.id === incoming.id);
          // The order limits: what does not fit is not added (the cart says why).
          if (!existing) {
            const quantity = clampToLimit(context.items, incoming, incoming.quantity);
            return quantity < 1 ? context.items : [...context.items, { ...incoming, quantity }];
          }
          const line = { ...existing, maxPerOrder: incoming.maxPerOrder ?? existing.maxPerOrder };
          const quantity = clampToLimit(context.items, line, existing.quantity + incoming.quantity);
          // Adding never takes away what the line already holds.
          return context.items.map((i) =>
            i === existing ? { ...line, quantity: Math.max(quantity, existing.quantity) } : i,
          );
        },
      }),
      removeItem: assign({
        items: ({ context, event }) =>
          event.type === 'cart.remove'
            ? context.items.filter((i) => i.id !== event.id)
            : context.items,
      }),
      setQuantity: assign({
        items: ({ context, event }) => {
          if (event.type !== 'cart.setQuantity') return context.items;
          // A value that is no number at all changes nothing; 0 or less removes (rules §4).
          const quantity = normalizeQuantity(event.quantity, Number.NaN);
          if (Number.isNaN(quantity)) return context.items;
          if (quantity <= 0) return context.items.filter((i) => i.id !== event.id);
          return context.items.map((i) =>
            i.id === event.id
              ? { ...i, quantity: Math.max(1, clampToLimit(context.items, i, quantity)) }
              : i,
          );
        },
      }),
      updateLines: assign({
        items: ({ context, event }) => {
          if (event.type !== 'cart.update' || !Array.isArray(event.lines)) return context.items;
          return context.items.flatMap((item) => {
            const update = event.lines.find((l) => l.id === item.id);
            if (!update) return [item];
            const quantity =
              update.available === null ? item.quantity : Math.min(item.quantity, update.available);
            return quantity < 1 ? [] : [{ ...item, price: normalizePrice(update.price), quantity }];
          });
        },
      }),
      applyCoupon: assign({
        coupon: ({ context, event }) =>
          event.type === 'cart.applyCoupon'
            ? (normalizeCoupon(event.coupon) ?? context.coupon)
            : context.coupon,
      }),
      removeCoupon: assign({ coupon: null }),
      clear: assign({ items: [], coupon: null }),
      restore: assign(() => readCart(storage)),
      persist: ({ context }) => writeCart(storage, context),
    },
    guards: {
      hasItems: ({ context }) => context.items.length > 0,
    },
  }).createMachine({
    id: 'cart',
    context: () => readCart(storage),
    initial: 'routing',
    states: {
      // Decides the first state from the restored cart.
      routing: {
        always: [{ guard: 'hasItems', target: 'filled' }, { target: 'empty' }],
      },
      empty: {
        always: { guard: 'hasItems', target: 'filled' },
      },
      filled: {
        always: { guard: not('hasItems'), target: 'empty' },
      },
    },
    on: {
      'cart.add': { actions: ['addItem', 'persist'] },
      'cart.remove': { actions: ['removeItem', 'persist'] },
      'cart.setQuantity': { actions: ['setQuantity', 'persist'] },
      'cart.update': { actions: ['updateLines', 'persist'] },
      'cart.applyCoupon': { actions: ['applyCoupon', 'persist'] },
      'cart.removeCoupon': { actions: ['removeCoupon', 'persist'] },
      'cart.clear': { actions: ['clear', 'persist'] },
      // Another tab changed the storage: take its state without writing it back.
      'cart.restore': { actions: ['restore'] },
    },
  });
}

export type CartMachine = ReturnType<typeof createCartMachine>;

/** The definition with memory storage, for diagrams and the inspector. */
export const cartMachine = createCartMachine(createMemoryStorage());
