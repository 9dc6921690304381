import { type ReactNode, useEffect, useState } from 'react';
import { apiGet, apiPost, errorText, isNotFound } from '@/lib/api-client';
import { staticMeta } from '@/lib/page-head';
import { Button } from '@/components/ui/button';
import { Alert, ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import { WaitlistCounts } from '@/features/waitlist/waitlist-counts';
import styles from './text-page.module.css';

/** Here rather than in config/paths.ts, which every page loads: only this page asks. */
const WEBHOOK_API = {
  events: '/api/checkout/webhook/events',
  test: '/api/checkout/webhook/test',
  shopEvents: '/api/webhooks/woocommerce/events',
  refusedHandOffs: '/api/checkout/handoffs/refused',
  retryHandOff: (orderId: string) => `/api/checkout/handoffs/${encodeURIComponent(orderId)}/retry`,
} as const;

interface RefusedHandOffRow {
  orderId: string;
  state: string;
  reason: string;
  at: string;
}

interface WebhookEventRow {
  type: string;
  receivedAt?: string;
  time?: string;
  outcome: string;
  id?: string;
}

interface WebhookEventsResponse {
  mode?: 'test' | 'live';
  events: WebhookEventRow[];
}

const timeFormat = new Intl.DateTimeFormat('de-DE', {
  dateStyle: 'short',
  timeStyle: 'medium',
  timeZone: 'Europe/Berlin',
});

function formatTime(iso: string | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : timeFormat.format(d);
}

/**
 * One internal list: loads `url` (again on `reload`), keeps the last answer and the German
 * error; the three lists of this page load alike.
 */
function useInternalList<T>(url: string): {
  data: T | null;
  error: unknown;
  reload: () => void;
} {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    apiGet<T>(url).then(
      (answer) => {
        if (!live) return;
        setData(answer);
        setError(null);
      },
      (failure: unknown) => {
        if (live) setError(failure);
      },
    );
    return () => {
      live = false;
    };
  }, [url, attempt]);
  return { data, error, reload: () => setAttempt((n) => n + 1) };
}

function EventTable({ rows, typeLabel }: { rows: WebhookEventRow[]; typeLabel: string }) {
  return (
    <div style={{ overflowX: 'auto' }}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{typeLabel}</th>
            <th scope="col">Zeit</th>
            <th scope="col">Ergebnis</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={row.id ?? `${row.receivedAt ?? row.time}-${i}`}>
              <td>
                <code>{row.type}</code>
              </td>
              <td>{formatTime(row.receivedAt ?? row.time)}</td>
              <td>{row.outcome}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * rules "WooCommerce webhooks": the shop's last deliveries (topic, time, outcome), apart
 * from the payment provider's events.
 */
function ShopDeliveries() {
  const { data, error, reload } = useInternalList<{ events: WebhookEventRow[] }>(
    WEBHOOK_API.shopEvents,
  );
  const rows = data === null ? null : (data?.events ?? []);
  const loadError = error ? errorText(error) : null;

  return (
    <>
      <h2>WooCommerce</h2>
      <p>Die letzten Webhook-Lieferungen des Shops – nur Thema, Zeit und Ergebnis.</p>
      {loadError ? (
        <ErrorState message={loadError} onRetry={reload} />
      ) : rows === null ? (
        <Loading label="Lieferungen werden geladen">
          <Skeleton height="1rem" width="100%" />
        </Loading>
      ) : rows.length === 0 ? (
        <p>Noch keine Lieferungen von WooCommerce empfangen.</p>
      ) : (
        <EventTable rows={rows} typeLabel="Thema" />
      )}
    </>
  );
}

/**
 * rules "Hand-off refused": paid orders WooCommerce refused, with its message; in test mode
 * a button hands one off again (else `npm run handoff:retry -- <order>`).
 */
function RefusedHandOffs({ testMode }: { testMode: boolean }) {
  const { data, error, reload } = useInternalList<{ orders: RefusedHandOffRow[] }>(
    WEBHOOK_API.refusedHandOffs,
  );
  const rows = data === null ? null : (data?.orders ?? []);
  const loadError = error ? errorText(error) : null;
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function retry(orderId: string) {
    setBusy(orderId);
    setResult(null);
    try {
      await apiPost(WEBHOOK_API.retryHandOff(orderId), {});
      setResult({ ok: true, text: `Übergabe von ${orderId} wird wiederholt.` });
      reload();
    } catch (error) {
      setResult({ ok: false, text: errorText(error) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <h2>Übergaben an den Shop</h2>
      <p>Bezahlte Bestellungen, die WooCommerce nicht angenommen hat, mit der Meldung des Shops.</p>
      {loadError ? (
        <ErrorState message={loadError} onRetry={reload} />
      ) : rows === null ? (
        <Loading label="Übergaben werden geladen">
          <Skeleton height="1rem" width="100%" />
        </Loading>
      ) : rows.length === 0 ? (
        <p>Keine fehlgeschlagenen Übergaben.</p>
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Bestellung</th>
                <th scope="col">Zeit</th>
                <th scope="col">Status</th>
                <th scope="col">Meldung von WooCommerce</th>
                {testMode ? <th scope="col">Aktion</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.orderId}>
                  <td>
                    <code>{row.orderId}</code>
                  </td>
                  <td>{formatTime(row.at)}</td>
                  <td>{row.state}</td>
                  <td>{row.reason}</td>
                  {testMode ? (
                    <td>
                      <Button onClick={() => void retry(row.orderId)} disabled={busy !== null}>
                        {busy === row.orderId ? 'Wird übergeben …' : 'Übergabe wiederholen'}
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div aria-live="polite">
        {result ? (
          <Alert tone={result.ok ? 'success' : 'error'}>
            <p>{result.text}</p>
          </Alert>
        ) : null}
      </div>
    </>
  );
}

export const handle = staticMeta(
  'Webhook-Test',
  'Interne Testseite: eingegangene Zahlungsereignisse und Lieferungen des Shops.',
  { noindex: true },
);

/** rules "Test pages": recent webhook events (no personal data) and a signed test event. */
export function Component() {
  const { data, error, reload } = useInternalList<WebhookEventsResponse | WebhookEventRow[]>(
    WEBHOOK_API.events,
  );
  const rows = data === null ? null : Array.isArray(data) ? data : (data?.events ?? []);
  const mode = data === null || Array.isArray(data) ? null : (data?.mode ?? null);
  // In production the server keeps these data to itself and says so (a 404 with its reason).
  const closed = error && isNotFound(error) ? errorText(error) : null;
  const loadError = error && !isNotFound(error) ? errorText(error) : null;
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function sendTest() {
    setSending(true);
    setResult(null);
    try {
      await apiPost(WEBHOOK_API.test, {});
      setResult({ ok: true, text: 'Test-Ereignis gesendet und verarbeitet.' });
      reload();
    } catch (error) {
      setResult({ ok: false, text: errorText(error) });
    } finally {
      setSending(false);
    }
  }

  const page = (children: ReactNode) => (
    <Page
      title="Webhook-Test"
      eyebrow="Interne Testseite"
      lead="Die letzten Ereignisse des Zahlungsdienstes und des Shops – nur Typ, Zeit und Ergebnis."
    >
      {children}
    </Page>
  );
  if (closed !== null) {
    return page(
      <p className={styles.notice}>
        {closed} Zahlungsereignisse, Lieferungen des Shops und Wartelisten sieht der Veranstalter im
        Dashboard des Zahlungsdienstes und im Shop.
      </p>,
    );
  }

  return page(
    <>
      {mode === 'live' ? (
        <p className={styles.notice}>
          Live-Modus: Test-Ereignisse sind abgeschaltet, hier stehen nur echte Ereignisse des
          Zahlungsdienstes.
        </p>
      ) : (
        <div className={styles.panel}>
          <h2>Test-Ereignis</h2>
          <p>
            Im Testmodus sendet der Server ein signiertes Test-Ereignis an seinen eigenen Webhook.
          </p>
          <Button onClick={() => void sendTest()} disabled={sending}>
            {sending ? 'Wird gesendet …' : 'Test-Ereignis senden'}
          </Button>
          <div aria-live="polite" style={{ marginTop: 'var(--space-4)' }}>
            {result ? (
              <Alert tone={result.ok ? 'success' : 'error'}>
                <p>{result.text}</p>
              </Alert>
            ) : null}
          </div>
        </div>
      )}
      <div className={styles.panel}>
        <h2>Letzte Ereignisse</h2>
        {loadError ? (
          <ErrorState message={loadError} onRetry={reload} />
        ) : rows === null ? (
          <Loading label="Ereignisse werden geladen">
            <Skeleton height="1rem" width="100%" style={{ marginBottom: '0.5rem' }} />
            <Skeleton height="1rem" width="100%" />
          </Loading>
        ) : rows.length === 0 ? (
          <p>Noch keine Ereignisse empfangen.</p>
        ) : (
          <EventTable rows={rows} typeLabel="Typ" />
        )}
      </div>
      <div className={styles.panel}>
        <ShopDeliveries />
      </div>
      <div className={styles.panel}>
        <RefusedHandOffs testMode={mode === 'test'} />
      </div>
      {/* rules "Waiting list": the organizer's queue lengths, counts only. */}
      <div className={styles.panel}>
        <WaitlistCounts />
      </div>
    </>,
  );
}
