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

/** rules "Orders made in the shop": the sweep of the shop's changed orders, its last run. */
interface SweepRow {
  lastRunAt: string | null;
  /** The latest change in the shop read so far (the shop's clock). */
  readUpTo: string | null;
  read: number;
  applied: number;
  error: string | null;
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

/** A change the sweep applied is listed among the deliveries, named as what it is. */
const SWEEP_TYPE = 'sweep';

/**
 * rules "Orders made in the shop": every 5 minutes the server reads the orders the shop
 * changed and applies what a lost webhook would have; its last run and what it applied.
 */
function SweepSummary({ sweep }: { sweep: SweepRow | null }) {
  return (
    <>
      <h3 style={{ marginTop: 'var(--space-5)' }}>Abgleich mit dem Shop</h3>
      {sweep === null ? (
        <p>
          Ohne WooCommerce gibt es keinen Abgleich: Bestellungen entstehen nur auf dieser Seite.
        </p>
      ) : (
        <>
          <p>
            Alle 5 Minuten liest der Server die im Shop geänderten Bestellungen und wendet an, was
            ein verlorener Webhook gebracht hätte.
          </p>
          {sweep.lastRunAt === null ? (
            <p>Der erste Abgleich steht noch aus.</p>
          ) : (
            <dl className={styles.kv}>
              <dt>Letzter Abgleich</dt>
              <dd>{formatTime(sweep.lastRunAt)}</dd>
              <dt>Gelesen</dt>
              <dd>{sweep.read === 1 ? '1 Bestellung' : `${sweep.read} Bestellungen`}</dd>
              <dt>Angewendet</dt>
              <dd>{sweep.applied === 1 ? '1 Änderung' : `${sweep.applied} Änderungen`}</dd>
              <dt>Stand des Shops</dt>
              <dd>{sweep.readUpTo === null ? '–' : formatTime(sweep.readUpTo)}</dd>
            </dl>
          )}
          {sweep.error ? (
            <Alert tone="error" title="Der letzte Abgleich ist fehlgeschlagen">
              <p>{sweep.error}</p>
            </Alert>
          ) : null}
        </>
      )}
    </>
  );
}

/**
 * rules "WooCommerce webhooks": the shop's last deliveries (topic, time, outcome), apart
 * from the payment provider's events, with the changes the sweep applied.
 */
function ShopDeliveries() {
  const { data, error, reload } = useInternalList<{
    events: WebhookEventRow[];
    sweep?: SweepRow | null;
  }>(WEBHOOK_API.shopEvents);
  const rows =
    data === null
      ? null
      : (data?.events ?? []).map((row) =>
          row.type === SWEEP_TYPE ? { ...row, type: 'Abgleich' } : row,
        );
  const loadError = error ? errorText(error) : null;

  return (
    <>
      <h2>WooCommerce</h2>
      <p>
        Die letzten Webhook-Lieferungen des Shops und die Änderungen des Abgleichs – nur Thema, Zeit
        und Ergebnis.
      </p>
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
      {data !== null && !loadError ? <SweepSummary sweep={data?.sweep ?? null} /> : null}
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
