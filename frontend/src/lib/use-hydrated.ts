import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's render and while the browser hydrates it, true afterwards. What
 * lives in the browser's storage (the cart) renders its server-safe default first, then
 * its real state after hydration (DESIGN "Rendering": no mismatch).
 *
 * That second render is a transition, so React renders it in slices that yield to the
 * browser. Returning the store's value itself would re-render everything below in one
 * synchronous task right after hydration (Total Blocking Time); it only tells whether
 * React is hydrating this component, which it knows per component.
 */
export function useHydrated(): boolean {
  const hydrating = useSyncExternalStore(
    subscribe,
    () => false,
    () => true,
  );
  // Mounted after hydration (a client-side navigation): the real state at once.
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
