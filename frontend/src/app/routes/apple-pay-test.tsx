import { useEffect, useState } from 'react';
import { usePageMeta } from '@/lib/page-meta';
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

/** DESIGN "Test pages": Apple Pay / Payment Request availability and the association file. */
export function Component() {
  usePageMeta({
    title: 'Apple-Pay-Test',
    description: 'Interne Testseite: Apple Pay und Payment Request.',
    noindex: true,
  });
  const [fileServed, setFileServed] = useState<Check>('prüfe …');
  const w = window as unknown as {
    ApplePaySession?: ApplePaySessionLike;
    PaymentRequest?: unknown;
  };
  const paymentRequest: Check = typeof w.PaymentRequest === 'function' ? 'ja' : 'nein';
  const applePay = applePayAvailable(w.ApplePaySession);

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
          <dd>{window.isSecureContext ? 'ja' : 'nein'}</dd>
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
