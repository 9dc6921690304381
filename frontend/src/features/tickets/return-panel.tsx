import { useEffect, useState } from 'react';
import { formatEuro, formatLongDate, formatTime, type TicketReturnView } from '@awhh/machines';
import { useApiForm } from '@/lib/form-action';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { fetchTicketReturn } from './api';
import type { TicketFormBody } from './ticket-actions';
import styles from './tickets.module.css';

/** "Freitag, 11. Dezember 2026 um 19:00 Uhr": until when the place can be bought. */
function deadline(iso: string): string {
  const date = formatLongDate(iso);
  const time = formatTime(iso);
  return date ? `${date}${time ? ` um ${time}` : ''}` : '';
}

function money(view: { refund: number; fee: number }): string {
  return view.fee > 0
    ? `${formatEuro(view.refund)} (der Ticketpreis abzüglich ${formatEuro(view.fee)} Gebühr)`
    : formatEuro(view.refund);
}

/**
 * rules "Giving a ticket back": "Ticket zurückgeben" on a sold-out evening with people
 * waiting. The place goes to the waiting list at once; the ticket stays valid until somebody
 * from the list buys it, then the money goes back. Shown only where there is something to
 * offer or to say; its data comes after the ticket, which never waits for it.
 */
export function TicketReturnPanel({ token }: { token: string }) {
  const [view, setView] = useState<TicketReturnView | null>(null);
  const { status, submit } = useApiForm<TicketReturnView>();
  const answered = status.state === 'done' ? status.data : null;
  const current = answered ?? view;

  useEffect(() => {
    const controller = new AbortController();
    fetchTicketReturn(token, controller.signal)
      .then(setView)
      // Nothing to offer is the quiet answer: the ticket itself is what the page is for.
      .catch(() => undefined);
    return () => controller.abort();
  }, [token]);

  if (!current || current.state === 'unavailable') return null;
  const busy = status.state === 'submitting';
  const error =
    status.state === 'error' ? (
      <Alert tone="error">
        <p>{status.message}</p>
      </Alert>
    ) : null;
  const send = (intent: 'return' | 'returnUndo') => {
    const body: TicketFormBody = { intent, token };
    void submit(body);
  };

  if (current.state === 'taken') {
    return (
      <div className={styles.returnPanel} aria-live="polite">
        <Alert tone="success" title="Dein Platz hat einen neuen Gast gefunden">
          {current.passedOn ? (
            <p>
              Jemand von der Warteliste hat den Platz gekauft. Die Erstattung von{' '}
              {formatEuro(current.refund)} geht an die Person, die das Ticket gekauft und dir
              weitergegeben hat. Dieses Ticket gilt nicht mehr für den Einlass.
            </p>
          ) : (
            <p>
              Jemand von der Warteliste hat deinen Platz gekauft. Wir erstatten dir{' '}
              {formatEuro(current.refund)}
              {current.refunded
                ? ' – die Erstattung ist veranlasst; je nach Bank siehst du sie in einigen Tagen auf deinem Konto.'
                : ' – die Erstattung ist unterwegs.'}{' '}
              Dieses Ticket gilt nicht mehr für den Einlass.
            </p>
          )}
        </Alert>
      </div>
    );
  }

  if (current.state === 'offered') {
    return (
      <div className={styles.returnPanel} aria-live="polite">
        <Alert tone="info" title="Zur Rückgabe angeboten">
          {current.passedOn ? (
            <p>
              Zur Rückgabe angeboten – sobald jemand von der Warteliste kauft, erstatten wir{' '}
              {money(current)} an die Person, die das Ticket gekauft und dir weitergegeben hat. Bis
              dahin bleibt das Ticket gültig. Kauft bis {deadline(current.until)} niemand, behältst
              du es und es wird nichts erstattet.
            </p>
          ) : (
            <p>
              Zur Rückgabe angeboten – du erhältst dein Geld zurück, sobald jemand von der
              Warteliste kauft ({money(current)}). Bis dahin bleibt dein Ticket gültig. Kauft bis{' '}
              {deadline(current.until)} niemand, behältst du es und es wird nichts erstattet.
            </p>
          )}
        </Alert>
        <Button variant="secondary" disabled={busy} onClick={() => send('returnUndo')}>
          {busy ? 'Wird zurückgenommen …' : 'Rückgabe zurücknehmen'}
        </Button>
        {error}
      </div>
    );
  }

  return (
    <details className={styles.resend}>
      <summary>Ticket zurückgeben</summary>
      <div className={styles.holderForm}>
        {current.passedOn ? (
          <p className={styles.muted}>
            Du kannst nicht kommen? Der Abend ist ausverkauft, und auf der Warteliste warten Leute.
            Gib das Ticket zurück, dann bieten wir den Platz sofort der Warteliste an. Sobald ihn
            jemand kauft, erstatten wir {money(current)} an die Person, die das Ticket gekauft und
            dir weitergegeben hat – nicht an dich. Bis dahin bleibt das Ticket gültig. Möglich bis{' '}
            {deadline(current.until)}.
          </p>
        ) : (
          <p className={styles.muted}>
            Du kannst nicht kommen? Der Abend ist ausverkauft, und auf der Warteliste warten Leute.
            Gib dein Ticket zurück, dann bieten wir deinen Platz sofort der Warteliste an. Sobald
            ihn jemand kauft, erstatten wir dir {money(current)}; bis dahin bleibt dein Ticket
            gültig. Möglich bis {deadline(current.until)}.
          </p>
        )}
        <Button disabled={busy} onClick={() => send('return')}>
          {busy ? 'Wird zurückgegeben …' : 'Ticket zurückgeben'}
        </Button>
        <div aria-live="polite" className={styles.resendResult}>
          {error}
        </div>
      </div>
    </details>
  );
}
