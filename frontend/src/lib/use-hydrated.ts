import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's render and while the browser hydrates it, true afterwards. What
 * lives in the browser's storage (the cart) renders its server-safe default first, then
 * its real state in the commit after hydration (DESIGN "Rendering": no mismatch).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
