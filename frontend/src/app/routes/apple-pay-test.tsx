import { useEffect, useState } from 'react';
import { staticMeta } from '@/lib/page-head';
import { useHydrated } from '@/lib/use-hydrated';
import { Page } from '@/components/ui/page';
import styles from './text-page.module.css';

const ASSOCIATION_FILE = '/.well-known/apple-developer-merchantid-domain-association';

type Check = 'prüfe …' | 'ja' | 'nein';

interface ApplePaySessionLike {
  canMakePayments(): boolean;
}

function applePayAvailable(session: ApplePaySessionLike | undefined): Check {
  try {
    return session?.canMakePayments() ? 'ja' : 'nein';
  } catch {
    // Safari throws outside a secure context.
    return 'nein';
  }
}

export const handle = staticMeta(
  'Apple-Pay-Test',
  'Interne Testseite: Verfügbarkeit von Apple Pay und Google Pay.',
  { noindex: true },
);

/** rules "Test pages": Apple Pay / Payment Request availability and the association file. */
export function Component() {
  const [fileServed, setFileServed] = useState<Check>('prüfe …');
  // What this browser offers is known only in the browser: the server's HTML says "prüfe …".
  const hydrated = useHydrated();
  const w = (hydrated ? window : {}) as {
    ApplePaySession?: ApplePaySessionLike;
    PaymentRequest?: unknown;
    isSecureContext?: boolean;
  };
  const probe = (check: () => Check): Check => (hydrated ? check() : 'prüfe …');
  const paymentRequest = probe(() => (typeof w.PaymentRequest === 'function' ? 'ja' : 'nein'));
  const applePay = probe(() => applePayAvailable(w.ApplePaySession));
  const secure = probe(() => (w.isSecureContext ? 'ja' : 'nein'));

  useEffect(() => {
    const controller = new AbortController();
    fetch(ASSOCIATION_FILE, { method: 'GET', signal: controller.signal })
      .then(async (res) => {
        const type = res.headers.get('content-type') ?? '';
        // The SPA answers unknown paths with HTML; only a non-HTML 200 is the real file.
        setFileServed(res.ok && !type.includes('text/html') ? 'ja' : 'nein');
      })
      .catch(() => {
        if (!controller.signal.aborted) setFileServed('nein');
      });
    return () => controller.abort();
  }, []);

  return (
    <Page
      title="Apple-Pay-Test"
      eyebrow="Interne Testseite"
      lead="Zeigt, welche Bezahlarten dieser Browser anbietet."
    >
      <div className={styles.panel}>
        <dl className={styles.kv}>
          <dt>Payment Request API</dt>
          <dd>{paymentRequest}</dd>
          <dt>Apple Pay verfügbar</dt>
          <dd>{applePay}</dd>
          <dt>Sicherer Kontext (HTTPS)</dt>
          <dd>{secure}</dd>
          <dt>Domain-Verifizierungsdatei</dt>
          <dd aria-live="polite">{fileServed}</dd>
        </dl>
      </div>
      <p style={{ maxWidth: 'var(--reading-width)' }}>
        Apple Pay erscheint auf der Zahlungsseite nur in Safari auf Apple-Geräten mit eingerichteter
        Karte, unter HTTPS und wenn die Domain beim Zahlungsdienst verifiziert ist (Datei unter{' '}
        <code>{ASSOCIATION_FILE}</code>).
      </p>
    </Page>
  );
}
