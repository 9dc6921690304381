import { useEffect, useState } from 'react';
import { formatDateTime, type OrganizerHandoffs } from '@awhh/machines';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { apiGet, apiPost, errorText } from '@/lib/api-client';
import styles from './event-tools.module.css';

export const handoffsApi = {
  list: '/api/organizer/handoffs',
  retry: (orderId: string) => `/api/organizer/handoffs/${encodeURIComponent(orderId)}/retry`,
} as const;

type Orders = OrganizerHandoffs['orders'];

/**
 * rules "Hand-off refused": paid orders WooCommerce refused, with its message, so the
 * organizer fixes the cause in the shop (a coupon's limit, a product) and hands each one
 * off again here. Shown only while there are any; a failure to load says so.
 */
export function HandoffsPanel() {
  const [orders, setOrders] = useState<Orders | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [retried, setRetried] = useState<string[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    apiGet<OrganizerHandoffs>(handoffsApi.list, controller.signal).then(
      (answer) => setOrders(answer.orders),
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(errorText(failure));
      },
    );
    return () => controller.abort();
  }, []);

  const retry = async (orderId: string) => {
    setBusy(orderId);
    setError(null);
    try {
      await apiPost(handoffsApi.retry(orderId), {});
      setRetried((list) => [...list, orderId]);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(null);
    }
  };

  if (orders === null && error === null) return null;
  if (orders !== null && orders.length === 0 && error === null) return null;
  return (
    <section className={styles.door} aria-labelledby="organizer-handoffs">
      <h2 id="organizer-handoffs" className={styles.toolTitle}>
        Übergabe an den Shop fehlgeschlagen
      </h2>
      {orders && orders.length > 0 ? (
        <>
          <p className={styles.hint}>
            Diese Bestellungen sind bezahlt, aber WooCommerce hat sie abgelehnt. Behebe den Grund im
            Shop und übergib sie dann erneut.
          </p>
          <ul className={styles.handoffs}>
            {orders.map((order) => (
              <li key={order.orderId} data-order={order.orderId}>
                <p>
                  <strong>Bestellung {order.orderId}</strong> · {formatDateTime(order.at) ?? ''}
                </p>
                <p className={styles.hint}>{order.reason}</p>
                {retried.includes(order.orderId) ? (
                  <Alert tone="success">
                    Wird erneut übergeben. Lädt die Seite neu, steht sie hier nur noch, wenn
                    WooCommerce wieder ablehnt.
                  </Alert>
                ) : (
                  <Button
                    variant="secondary"
                    onClick={() => void retry(order.orderId)}
                    disabled={busy !== null}
                    aria-label={`Bestellung ${order.orderId} erneut übergeben`}
                  >
                    {busy === order.orderId ? 'Wird übergeben …' : 'Erneut übergeben'}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </section>
  );
}
