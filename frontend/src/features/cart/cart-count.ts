import { useSyncExternalStore } from 'react';
import { CART_STORAGE_KEY, COUPON_STORAGE_KEY, readCart } from '@awhh/machines';
import { browserStorage } from './browser-storage';

// The header badge is on every page, the cart machine only on the pages that change the
// cart. Until the cart actor exists the count comes from the saved cart (same reader as
// the machine), so the first load of `/` does not need the state-machine runtime.

interface CountSource {
  get(): number;
  subscribe(onChange: () => void): () => void;
}

const listeners = new Set<() => void>();
let source: CountSource | null = null;
let stored: number | null = null;
let listening = false;

function notify() {
  for (const listener of listeners) listener();
}

function storedCount(): number {
  stored ??= readCart(browserStorage()).items.reduce((n, item) => n + item.quantity, 0);
  return stored;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!listening) {
    listening = true;
    window.addEventListener('storage', (event) => {
      if (
        event.key === null ||
        event.key === CART_STORAGE_KEY ||
        event.key === COUPON_STORAGE_KEY
      ) {
        stored = null;
        notify();
      }
    });
  }
  return () => listeners.delete(listener);
}

function getSnapshot(): number {
  return source ? source.get() : storedCount();
}

/** Called once by the cart actor: from then on the machine is the source of the count. */
export function attachCountSource(next: CountSource): void {
  source = next;
  next.subscribe(notify);
  notify();
}

/** No badge in the server's HTML: the cart lives in the browser (rules "Rendering"). */
const getServerSnapshot = () => 0;

/** rules §2: the badge shows the total item count, from the commit after hydration on. */
export function useCartCount(): number {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}
