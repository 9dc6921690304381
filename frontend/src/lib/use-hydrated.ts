import { startTransition, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';

const subscribe = () => () => {};

// True from hydrateRoot until the hydration's effects have run (main.tsx). Only a hint:
// React itself tells whether a component hydrates (the server snapshot below).
let hydrationPending = false;

/** main.tsx, right before hydrateRoot. */
export function beginHydration(): void {
  hydrationPending = true;
}

/**
 * Wraps the hydrated tree. Effects run children first, so this one runs after every
 * `useHydrated` of the hydration has compared its snapshots.
 */
export function HydrationScope({ children }: { children: ReactNode }) {
  useEffect(() => {
    hydrationPending = false;
  }, []);
  return children;
}

/**
 * False in the server's render and while the browser hydrates it, true afterwards. What
 * lives in the browser's storage (the cart) renders its server-safe default first, then
 * its real state after hydration (rules "Rendering": no mismatch).
 *
 * That second render is a transition, so React renders it in slices that yield to the
 * browser. Returning the store's value itself would re-render everything below in one
 * synchronous task right after hydration (Total Blocking Time); it only tells whether
 * React is hydrating this component, which it knows per component. The browser's snapshot
 * stays `true` until the hydration's effects are done: React compares it with the
 * server's right after hydrating and would force a synchronous re-render on a difference.
 */
export function useHydrated(): boolean {
  const hydrating = useSyncExternalStore(
    subscribe,
    () => hydrationPending,
    () => true,
  );
  // Mounted after hydration (a client-side navigation): the real state at once.
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
