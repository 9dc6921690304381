import { useEffect, useState } from 'react';
import { formatDateTime, type OrganizerNotices } from '@awhh/machines';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { apiGet, apiPost, errorText } from '@/lib/api-client';
import styles from './event-tools.module.css';

export const noticesApi = {
  list: '/api/organizer/notices',
  done: (id: string) => `/api/organizer/notices/${encodeURIComponent(id)}/done`,
} as const;

type Notices = OrganizerNotices['notices'];

/**
 * docs/ledger.md "Told to the organizer": what the site could not settle with the shop
 * alone (places to put back into stock there, a refunded guest already let in), worded by
 * the server; "Erledigt" takes one off the list. Shown only while there are any; a failure
 * to load says so.
 */
export function NoticesPanel() {
  const [notices, setNotices] = useState<Notices | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    apiGet<OrganizerNotices>(noticesApi.list, controller.signal).then(
      (answer) => setNotices(answer.notices),
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(errorText(failure));
      },
    );
    return () => controller.abort();
  }, []);

  const done = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      await apiPost(noticesApi.done(id), {});
      setNotices((list) => (list ?? []).filter((n) => n.id !== id));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(null);
    }
  };

  if (notices === null && error === null) return null;
  if (notices !== null && notices.length === 0 && error === null) return null;
  return (
    <section className={styles.door} aria-labelledby="organizer-notices">
      <h2 id="organizer-notices" className={styles.toolTitle}>
        Hinweise aus dem Shop
      </h2>
      {notices && notices.length > 0 ? (
        <ul className={styles.handoffs}>
          {notices.map((notice) => (
            <li key={notice.id} data-notice={notice.kind}>
              <p>
                <strong>{notice.title}</strong> · {formatDateTime(notice.at) ?? ''}
              </p>
              {notice.paragraphs.map((text) => (
                <p key={text} className={styles.hint}>
                  {text}
                </p>
              ))}
              <Button
                variant="secondary"
                onClick={() => void done(notice.id)}
                disabled={busy !== null}
                aria-label={`Hinweis „${notice.title}“ vom ${formatDateTime(notice.at) ?? ''} als erledigt markieren`}
              >
                {busy === notice.id ? 'Wird gespeichert …' : 'Erledigt'}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </section>
  );
}
