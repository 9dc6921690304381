import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  formatLongDate,
  formatTicketCode,
  formatTime,
  type Ticket,
  type TicketTransferResult,
} from '@awhh/machines';
import { api, paths } from '@/config/paths';
import { ButtonLink } from '@/components/ui/button';
import { Alert, Skeleton } from '@/components/ui/feedback';
import { ticketsApi } from './api';
import { TicketHolderForm } from './holder-form';
import { ResendTicketsForm } from './resend-form';
import { TicketReturnPanel } from './return-panel';
import { TransferTicketForm } from './transfer-form';
import { TicketQr } from './ticket-qr';
import { WalletButtons } from './wallet-buttons';
import styles from './tickets.module.css';

/** "Ticket 2 von 3": the seat within the order's line for this event and tier. */
export function seatLabel(ticket: Pick<Ticket, 'seat' | 'seats'>): string {
  return `Ticket ${ticket.seat} von ${ticket.seats}`;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export interface TicketViewProps {
  ticket: Ticket;
}

/**
 * rules "Tickets and the door": what the buyer shows at the door. The QR code comes first
 * on a phone; a revoked ticket (refund, cancellation) says so and shows no code at all.
 */
export function TicketView({ ticket: loaded }: TicketViewProps) {
  // rules "Named tickets": a name saved here shows at once; a ticket passed on from here
  // leaves this page's link void.
  const [named, setNamed] = useState<{ holder: string; company: string | null } | null>(null);
  const [passedOn, setPassedOn] = useState<TicketTransferResult | null>(null);
  const ticket = named ? { ...loaded, ...named } : loaded;
  if (passedOn) return <TicketPassedOn to={passedOn} />;
  const revoked = ticket.status === 'revoked';
  const date = formatLongDate(ticket.startsAt);
  const time = formatTime(ticket.startsAt);
  const seat = seatLabel(ticket);

  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.header}>
        <span className={styles.eyebrow}>{revoked ? 'Storniertes Ticket' : 'Dein Ticket'}</span>
        <h1 className={styles.title}>
          {ticket.eventSlug ? (
            <Link to={paths.event(ticket.eventSlug)}>{ticket.eventName}</Link>
          ) : (
            ticket.eventName
          )}
        </h1>
        <p className={styles.seat}>
          {ticket.tier ? <span className={styles.tier}>{ticket.tier}</span> : null}
          {/* rules "Orders made in the shop": the organizer's guests (an order of 0 €). */}
          {ticket.guestList ? <span className={styles.tier}>Gästeliste</span> : null}
          <span>{seat}</span>
        </p>
      </header>

      <div className={styles.layout}>
        <section
          className={revoked ? `${styles.card} ${styles.cardRevoked}` : styles.card}
          aria-labelledby="ticket-code-title"
        >
          <h2 id="ticket-code-title" className="visually-hidden">
            {revoked ? 'Status' : 'Einlass-Code'}
          </h2>
          {revoked ? (
            <div className={styles.revoked} role="status">
              <span className={styles.stamp}>Storniert</span>
              <p>
                Dieses Ticket wurde storniert und gilt nicht mehr für den Einlass. Das passiert,
                wenn eine Bestellung erstattet oder storniert wurde.
              </p>
              <p>
                Fragen dazu? <Link to={paths.contact}>Schreib uns</Link>.
              </p>
            </div>
          ) : (
            <>
              <div className={styles.qrFrame}>
                <TicketQr token={ticket.token} label={`QR-Code: ${seat}, ${ticket.eventName}`} />
              </div>
              {ticket.code ? (
                <p className={styles.shortCode}>
                  <span className={styles.shortCodeLabel}>Ticket-Code</span>
                  <span className={styles.shortCodeValue}>{formatTicketCode(ticket.code)}</span>
                </p>
              ) : null}
              <p className={styles.doorHint}>
                <strong>Zeig diesen Code am Einlass.</strong> Dreh die Bildschirmhelligkeit hoch –
                dann geht es am schnellsten.
                {ticket.code ? ' Klappt der Scan nicht, nenn einfach den Ticket-Code.' : null}
              </p>
            </>
          )}
        </section>

        <div className={styles.details}>
          <dl className={styles.facts}>
            <Fact term="Datum">{date ?? 'Termin folgt'}</Fact>
            {time ? <Fact term="Beginn">{time}</Fact> : null}
            {ticket.venue ? <Fact term="Ort">{ticket.venue}</Fact> : null}
            {ticket.tier ? <Fact term="Kategorie">{ticket.tier}</Fact> : null}
            {ticket.holder ? <Fact term="Name">{ticket.holder}</Fact> : null}
            {ticket.company ? <Fact term="Firma">{ticket.company}</Fact> : null}
            <Fact term="Ticket">{seat}</Fact>
            {ticket.orderNumber ? (
              <Fact term="Bestellnummer">
                <span className={styles.number}>{ticket.orderNumber}</span>
              </Fact>
            ) : null}
          </dl>

          {revoked ? null : (
            <div className={styles.actions}>
              {ticket.eventSlug ? (
                <a className={styles.action} href={api.eventCalendar(ticket.eventSlug)} download>
                  Zum Kalender hinzufügen
                </a>
              ) : null}
              <a className={styles.action} href={ticketsApi.pdf(ticket.token)} download>
                Als PDF speichern
              </a>
              <WalletButtons token={ticket.token} />
            </div>
          )}

          <TicketReturnPanel token={ticket.token} />

          {revoked ? null : (
            <>
              <TicketHolderForm ticket={ticket} onSaved={setNamed} />
              <TransferTicketForm ticket={ticket} onTransferred={setPassedOn} />
            </>
          )}

          <ResendTicketsForm />
        </div>
      </div>
    </div>
  );
}

/**
 * rules "Named tickets": the ticket went to someone else (just now from this page, or
 * earlier: the API answers 410 for this link). Nothing of the ticket shows any more.
 */
export function TicketPassedOn({ to }: { to?: TicketTransferResult }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Just passed on from further down the page: the answer is read (and seen) from its top.
  useEffect(() => {
    if (to) heading.current?.focus();
  }, [to]);
  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.header}>
        <span className={styles.eyebrow}>Ticket</span>
        <h1 ref={heading} tabIndex={-1} className={styles.title}>
          Ticket weitergegeben
        </h1>
      </header>
      <div className={styles.narrow}>
        <Alert
          tone="info"
          title={to ? `Weitergegeben an ${to.holder}` : 'Dieser Link gilt nicht mehr'}
        >
          <p>
            {to
              ? `${to.holder} bekommt das Ticket gleich per E-Mail an ${to.email} – mit neuem QR-Code und Ticket-Code.`
              : 'Dieses Ticket wurde an eine andere Person weitergegeben.'}{' '}
            Dieser Link, sein QR-Code und sein Ticket-Code gelten nicht mehr für den Einlass.
          </p>
        </Alert>
        <ResendTicketsForm />
        <div className={styles.actions}>
          <ButtonLink to={paths.home} variant="secondary">
            Zur Startseite
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}

/** Unknown or altered token: the API answers 404, the page explains in German. */
export function TicketNotFound() {
  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.header}>
        <span className={styles.eyebrow}>Ticket</span>
        <h1 className={styles.title}>Ticket nicht gefunden</h1>
      </header>
      <div className={styles.narrow}>
        <Alert tone="info" title="Diesen Ticket-Link kennen wir nicht">
          <p>
            Vielleicht ist der Link unvollständig – öffne ihn am besten direkt aus deiner
            Bestätigungsmail. Oder lass dir deine Tickets noch einmal schicken.
          </p>
        </Alert>
        <ResendTicketsForm />
        <div className={styles.actions}>
          <ButtonLink to={paths.home} variant="secondary">
            Zur Startseite
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}

export function TicketSkeleton() {
  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.header}>
        <Skeleton height="0.9rem" width="7rem" style={{ marginBottom: '0.75rem' }} />
        <Skeleton height="2.4rem" width="80%" />
      </header>
      <div className={styles.layout}>
        <div className={styles.card}>
          <Skeleton height="auto" style={{ aspectRatio: '1 / 1', width: '100%' }} />
        </div>
        <div>
          <Skeleton height="1rem" width="90%" style={{ marginBottom: '0.5rem' }} />
          <Skeleton height="1rem" width="70%" style={{ marginBottom: '0.5rem' }} />
          <Skeleton height="1rem" width="60%" />
        </div>
      </div>
    </div>
  );
}
