import type { InspectionEvent, Observer } from 'xstate';

type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

let inspect: Inspect | undefined;

/**
 * VITE_XSTATE_INSPECT=true opens the Stately inspector. vite.config.ts defines
 * __XSTATE_INSPECT__ from it as a literal, so without the flag the dynamic import below
 * is dead code and never bundled (a constant imported from env.ts would not be folded).
 */
export async function initInspector(): Promise<void> {
  if (typeof __XSTATE_INSPECT__ === 'undefined' || !__XSTATE_INSPECT__) return;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  inspect = createBrowserInspector().inspect;
}

/** Passed as `inspect` to every createActor/useActorRef. */
export function getInspect(): Inspect | undefined {
  return inspect;
}
