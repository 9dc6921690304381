import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCents, lineTotalCents, type OrderSummary, type TicketLink } from '@awhh/machines';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { ButtonLink } from '@/components/ui/button';
import { Alert, ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { fetchOrder } from './checkout-api';
import styles from './checkout.module.css';
import { Totals } from '@/components/ui/totals';

/** The webhook usually lands within seconds; poll that long before explaining. */
export const POLL_INTERVAL_MS = 1500;
export const POLL_LIMIT_MS = 20_000;
/** An open session after the redirect back is rarely still completing; wait less. */
export const OPEN_POLL_LIMIT_MS = 6_000;

type State =
  | { kind: 'loading' }
  | { kind: 'order'; order: OrderSummary; settled: boolean }
  | { kind: 'error'; message: string };

export interface SuccessViewProps {
  sessionId: string | null;
  /** rules "/success": the cart is cleared only once the order is paid. */
  onPaid: () => void;
  /** Shown below the tickets of a paid order (the route puts the resend form there). */
  ticketExtras?: (order: OrderSummary) => ReactNode;
}

/** "Dein Ticket für Sommer-Afterwork – VIP (1 von 2)". */
export function ticketLinkText(ticket: TicketLink): string {
  const tier = ticket.tier ? ` – ${ticket.tier}` : '';
  return `Dein Ticket für ${ticket.eventName}${tier} (${ticket.seat} von ${ticket.seats})`;
}

/** Only a path on this site becomes a link (the server names it; never send buyers elsewhere). */
function sitePath(url: string | null | undefined): string | null {
  return url && url.startsWith('/') && !url.startsWith('//') ? url : null;
}

/** rules "Tickets and the door": the paid order's tickets, each with its own page. */
function OrderTickets({ order }: { order: OrderSummary }) {
  // Older servers send no tickets field; the schema's default is not applied in the browser.
  const tickets = order.tickets ?? [];
  if (tickets.length === 0) return null;
  const mailbox = sitePath(order.mailboxUrl);
  return (
    <section className={styles.tickets} aria-labelledby="order-tickets">
      <h3 id="order-tickets">{tickets.length === 1 ? 'Dein Ticket' : 'Deine Tickets'}</h3>
      <ul className={styles.ticketList}>
        {tickets.map((ticket) => (
          <li key={ticket.token}>
            <Link to={paths.ticket(ticket.token)} className={styles.ticketLink}>
              {ticketLinkText(ticket)}
            </Link>
            {ticket.status === 'revoked' ? (
              <span className={styles.revoked}> – storniert</span>
            ) : ticket.passedOn ? (
              // rules "Named tickets": the link is the buyer's old one, which says so.
              <span className={styles.revoked}>
                {' '}
                – weitergegeben an {ticket.holder ?? 'jemand anderen'}
              </span>
            ) : ticket.holder ? (
              <span> – {ticket.holder}</span>
            ) : null}
          </li>
        ))}
      </ul>
      <p className={styles.hint}>
        {tickets.length === 1 ? 'Dein Ticket kommt' : 'Deine Tickets kommen'} auch per E-Mail – als
        PDF mit QR-Code und Kalendereintrag. Am Einlass reicht der QR-Code auf dem Handy.
      </p>
      {mailbox ? (
        <div className={styles.mailbox}>
          <p>Testmodus: Es geht keine echte Mail hinaus, sie liegt im Testpostfach.</p>
          <ButtonLink to={mailbox} variant="secondary">
            Zum Testpostfach
          </ButtonLink>
        </div>
      ) : null}
    </section>
  );
}

export const DETAILS_WITHHELD_TEXT =
  'Tickets und E-Mail-Adresse zeigen wir hier nur bis 24 Stunden nach der Zahlung. Deine Tickets findest du in der Bestellbestätigung per E-Mail – fehlt sie, schicken wir sie dir gern noch einmal.';

/** A day after the payment the server withholds tickets and address: point to the mail. */
function WithheldDetails() {
  return (
    <section className={styles.tickets} aria-labelledby="order-tickets">
      <h3 id="order-tickets">Deine Tickets</h3>
      <p className={styles.hint}>{DETAILS_WITHHELD_TEXT}</p>
    </section>
  );
}

function OrderLines({ order }: { order: OrderSummary }) {
  return (
    <>
      <ul className={styles.lines}>
        {order.lines.map((line, i) => (
          <li key={`${line.name}-${i}`} className={styles.line}>
            <p className={styles.lineName}>{line.name}</p>
            <p className={styles.amount}>{formatCents(lineTotalCents(line))}</p>
            <p className={styles.lineMeta}>
              {line.quantity} × {formatCents(line.unitAmount)}
            </p>
          </li>
        ))}
      </ul>
      <Totals
        subtotal={order.subtotal}
        discount={order.discount}
        total={order.total}
        hasCoupon={order.discount > 0}
        couponCode={order.couponCode}
        totalLabel="Bezahlt"
      />
    </>
  );
}

export function SuccessView({ sessionId, onPaid, ticketExtras }: SuccessViewProps) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const paidRef = useRef(false);

  useEffect(() => {
    if (!sessionId) return;
    const controller = new AbortController();
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;

    const poll = async () => {
      try {
        const order = await fetchOrder(sessionId, controller.signal);
        const waiting = order.status === 'processing' || order.status === 'open';
        const limit = order.status === 'open' ? OPEN_POLL_LIMIT_MS : POLL_LIMIT_MS;
        const settled = !waiting || Date.now() - started >= limit;
        setState({ kind: 'order', order, settled });
        if (order.status === 'paid' && !paidRef.current) {
          paidRef.current = true;
          onPaid();
        }
        if (!settled) timer = setTimeout(() => void poll(), POLL_INTERVAL_MS);
      } catch (error) {
        if (controller.signal.aborted) return;
        setState({ kind: 'error', message: errorText(error) });
      }
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [sessionId, attempt, onPaid]);

  if (!sessionId) {
    return (
      <Alert tone="info" title="Keine Zahlung gefunden">
        <p>
          Diese Seite zeigt das Ergebnis einer Zahlung. Es wurde keine Zahlungssitzung übergeben.
        </p>
        <ButtonLink to={paths.cart} variant="secondary">
          Zum Warenkorb
        </ButtonLink>
      </Alert>
    );
  }
  if (state.kind === 'loading') {
    return (
      <Loading label="Zahlungsstatus wird abgefragt …">
        <Skeleton height="2rem" width="60%" style={{ marginBottom: '1rem' }} />
        <Skeleton height="1rem" width="90%" style={{ marginBottom: '0.5rem' }} />
        <Skeleton height="1rem" width="70%" />
      </Loading>
    );
  }
  if (state.kind === 'error') {
    return (
      <ErrorState
        message={state.message}
        onRetry={() => {
          setState({ kind: 'loading' });
          setAttempt((n) => n + 1);
        }}
      />
    );
  }

  const { order, settled } = state;
  if (order.status === 'paid') {
    return (
      <div className={styles.panel}>
        <h2>Danke für deine Bestellung!</h2>
        {order.orderNumber ? (
          <p>
            Bestellnummer <span className={styles.orderNumber}>{order.orderNumber}</span>
          </p>
        ) : null}
        <p>
          Deine Zahlung ist eingegangen.
          {order.email ? ` Die Bestätigung geht an ${order.email}.` : ''} Wir freuen uns auf dich!
        </p>
        {order.detailsWithheld ? <WithheldDetails /> : <OrderTickets order={order} />}
        <OrderLines order={order} />
        {(order.tickets ?? []).length > 0 || order.detailsWithheld ? ticketExtras?.(order) : null}
        <div className={styles.actions}>
          <ButtonLink to={paths.home}>Zur Startseite</ButtonLink>
        </div>
      </div>
    );
  }
  if (!settled) {
    return (
      <Loading label="Zahlung wird bestätigt …">
        <Alert tone="info" title="Zahlung wird bestätigt …">
          <p>Der Zahlungsdienst meldet die Zahlung gerade. Das dauert meist nur wenige Sekunden.</p>
        </Alert>
      </Loading>
    );
  }
  const text: Record<Exclude<OrderSummary['status'], 'paid'>, { title: string; body: string }> = {
    processing: {
      title: 'Zahlung in Bearbeitung',
      body: 'Deine Zahlung wird noch bearbeitet. Sobald sie bestätigt ist, erhältst du eine E-Mail. Dein Warenkorb bleibt bis dahin erhalten.',
    },
    open: {
      title: 'Zahlung noch nicht abgeschlossen',
      body: 'Die Zahlung wurde noch nicht abgeschlossen. Dein Warenkorb ist erhalten – du kannst es jederzeit erneut versuchen.',
    },
    expired: {
      title: 'Zahlung abgelaufen',
      body: 'Die Zahlungssitzung ist abgelaufen, es wurde nichts abgebucht. Dein Warenkorb ist erhalten.',
    },
    canceled: {
      title: 'Zahlung abgebrochen',
      body: 'Die Zahlung wurde abgebrochen, es wurde nichts abgebucht. Dein Warenkorb ist erhalten.',
    },
  };
  const t = text[order.status];
  return (
    <div>
      <Alert tone="info" title={t.title}>
        <p>{t.body}</p>
      </Alert>
      <div className={styles.actions}>
        <ButtonLink to={paths.checkout}>Erneut zur Kasse</ButtonLink>
        <ButtonLink to={paths.cart} variant="secondary">
          Zum Warenkorb
        </ButtonLink>
      </div>
    </div>
  );
}
