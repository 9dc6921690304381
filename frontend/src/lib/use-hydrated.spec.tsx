import { act, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { beginHydration, HydrationScope, useHydrated } from './use-hydrated';

// rules "Rendering": state from the browser's storage appears after hydration, without a
// mismatch and without a synchronous re-render right after hydrating (Total Blocking Time).
describe('useHydrated', () => {
  beforeAll(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  });

  it('hydrates as false, then turns true in one transition render, with no render between', async () => {
    const seen: boolean[] = [];
    function Probe() {
      const hydrated = useHydrated();
      seen.push(hydrated);
      return <p>{hydrated ? 'Browser' : 'Server'}</p>;
    }
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Probe />);
    expect(seen).toEqual([false]);
    seen.length = 0;

    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    beginHydration();
    await act(async () => {
      startTransition(() => {
        hydrateRoot(
          container,
          <HydrationScope>
            <Probe />
          </HydrationScope>,
          { onRecoverableError: (error) => console.error(error) },
        );
      });
    });
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect(seen).toEqual([false, true]);
    expect(container.textContent).toBe('Browser');
  });

  it('is true at once in a component mounted after hydration', async () => {
    const seen: boolean[] = [];
    function Probe() {
      seen.push(useHydrated());
      return null;
    }
    const { createRoot } = await import('react-dom/client');
    const root = createRoot(document.createElement('div'));
    await act(async () => root.render(<Probe />));
    expect(seen).toEqual([true]);
    root.unmount();
  });
});
