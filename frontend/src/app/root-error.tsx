import { useIsBot } from '@/lib/bot';

/**
 * Last line of defence, kept tiny because it ships with the first load: the page-level
 * error page itself could not be loaded (rules §8 "Internal Server Error").
 */
export function RootError() {
  const bot = useIsBot();
  if (bot) return null;
  return (
    <section
      className="container"
      style={{ paddingBlock: '4rem' }}
      aria-labelledby="root-error-title"
    >
      <h1 id="root-error-title">Internal Server Error</h1>
      <p>
        Die Seite konnte nicht geladen werden. Bitte lade sie neu oder versuche es später noch
        einmal.
      </p>
      <button type="button" onClick={() => window.location.reload()}>
        Seite neu laden
      </button>
    </section>
  );
}
