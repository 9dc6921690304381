import { useEffect, useId, useState } from 'react';
import type { WaitlistCounts as Counts } from '@awhh/machines';
import { errorText } from '@/lib/api-client';
import { Alert } from '@/components/ui/feedback';
import { fetchWaitlistCounts } from './api';
import styles from './waitlist.module.css';

/**
 * rules "Waiting list" for the organizer, on the public status page (rules "Test pages":
 * no personal data): how many confirmed entries wait and how many offers hold places, per
 * event and tier. Counts only, never an address.
 */
export function WaitlistCounts() {
  const heading = useId();
  const [counts, setCounts] = useState<Counts | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchWaitlistCounts(controller.signal).then(setCounts, (e: unknown) => {
      if (!controller.signal.aborted) setError(errorText(e));
    });
    return () => controller.abort();
  }, []);
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>Wartelisten</h2>
      {error ? (
        <Alert tone="error">
          <p>{error}</p>
        </Alert>
      ) : counts === null ? (
        <p className={styles.small}>Wird geladen …</p>
      ) : counts.rows.length === 0 ? (
        <p className={styles.small}>Niemand wartet gerade.</p>
      ) : (
        <table className={styles.counts}>
          <caption className="visually-hidden">
            Wartende und offene Angebote je Event und Ticketart
          </caption>
          <thead>
            <tr>
              <th scope="col">Event / Ticketart</th>
              <th scope="col" className={styles.number}>
                Wartend
              </th>
              <th scope="col" className={styles.number}>
                Angebote offen
              </th>
            </tr>
          </thead>
          <tbody>
            {counts.rows.map((row) => (
              <tr key={`${row.productId}:${row.variationId ?? ''}`}>
                <td>{row.lineName}</td>
                <td className={styles.number}>{row.waiting}</td>
                <td className={styles.number}>{row.offered}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
