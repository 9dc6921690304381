import { createActor, type ActorRefFrom } from 'xstate';
import {
  CART_STORAGE_KEY,
  COUPON_STORAGE_KEY,
  createCartMachine,
  type CartMachine,
} from '@awhh/machines';
import { getInspect } from '@/lib/inspect';
import { browserStorage } from './browser-storage';
import { attachCountSource } from './cart-count';

export type CartActor = ActorRefFrom<CartMachine>;

let actor: CartActor | null = null;

const itemCount = (a: CartActor) =>
  a.getSnapshot().context.items.reduce((n, item) => n + item.quantity, 0);

/** The one cart of the app (rules §4), created on first use and kept for the page's life. */
export function getCartActor(): CartActor {
  if (actor) return actor;
  const created = createActor(createCartMachine(browserStorage()), { inspect: getInspect() });
  created.start();
  // Another tab saved the cart: take its state (the machine does not write it back). The
  // server renderer creates an unused cart in memory (pages take the actor to send to it).
  if (typeof window !== 'undefined') {
    window.addEventListener('storage', (event) => {
      if (
        event.key === null ||
        event.key === CART_STORAGE_KEY ||
        event.key === COUPON_STORAGE_KEY
      ) {
        created.send({ type: 'cart.restore' });
      }
    });
  }
  actor = created;
  attachCountSource({
    get: () => itemCount(created),
    subscribe: (onChange) => {
      const sub = created.subscribe(onChange);
      return () => sub.unsubscribe();
    },
  });
  return created;
}
