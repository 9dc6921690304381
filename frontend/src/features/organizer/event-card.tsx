import { useId } from 'react';
import {
  formatClock,
  formatDateTime,
  formatEuro,
  type OrganizerEvent,
  type OrganizerTier,
} from '@awhh/machines';
import { ButtonLink } from '@/components/ui/button';
import { EventTools } from './event-tools';
import { FiguresChart } from './figures-chart';
import { type LiveState, useLiveEvent } from './use-live-event';
import styles from './organizer.module.css';

export interface EventCardProps {
  event: OrganizerEvent;
  /** Whether the card follows the event's live stream. */
  live: boolean;
  onStreamEnded: () => void;
}

function places(sold: number, capacity: number | null): string {
  return capacity === null ? `${sold}` : `${sold} / ${capacity}`;
}

function share(sold: number, capacity: number | null): number {
  if (!capacity || capacity <= 0) return 0;
  return Math.min(100, Math.round((sold / capacity) * 100));
}

const LIVE_TEXT: Record<LiveState, string> = {
  off: '',
  connecting: 'Verbinde …',
  live: 'Live',
  lost: 'Nicht live',
};

function TierRow({ tier }: { tier: OrganizerTier }) {
  return (
    <tr>
      <th scope="row">{tier.name}</th>
      <td>
        <span className={styles.tierFigure}>{places(tier.sold, tier.capacity)}</span>
        <span className={styles.bar} aria-hidden="true">
          <span style={{ width: `${share(tier.sold, tier.capacity)}%` }} />
        </span>
      </td>
      <td>{tier.openCheckouts}</td>
    </tr>
  );
}

/**
 * rules "The organizer": one event on the dashboard: sold and places per tier, revenue,
 * checkouts waiting for their payment, the waiting list, check-ins (live, when the card
 * follows the stream), the no-shows once the evening is over, and the two charts.
 */
export function EventCard({ event: initial, live, onStreamEnded }: EventCardProps) {
  const { event, state } = useLiveEvent(initial, live, onStreamEnded);
  const headingId = useId();
  const when = formatDateTime(event.startsAt) ?? 'Ohne Datum';
  const ended = event.noShows !== null;
  return (
    <article className={styles.card} aria-labelledby={headingId} data-event-id={event.id}>
      <header className={styles.cardHeader}>
        <p className={styles.when}>
          {when}
          {event.venue ? ` · ${event.venue}` : ''}
        </p>
        <h3 id={headingId} className={styles.cardTitle}>
          {event.name}
        </h3>
        {live ? (
          <p className={styles.liveBadge} data-state={state}>
            <span className={styles.liveDot} aria-hidden="true" />
            {LIVE_TEXT[state]}
            <span className={styles.updated}> · Stand {formatClock(event.updatedAt)} Uhr</span>
          </p>
        ) : null}
      </header>

      <dl className={styles.stats}>
        <div className={styles.stat}>
          <dt>Verkauft</dt>
          <dd data-figure="sold">{places(event.sold, event.capacity)}</dd>
        </div>
        <div className={styles.stat}>
          <dt>Umsatz</dt>
          <dd data-figure="revenue">{formatEuro(event.revenue)}</dd>
        </div>
        <div className={styles.stat}>
          <dt>Eingecheckt</dt>
          <dd data-figure="checked-in">{event.checkedIn}</dd>
        </div>
        <div className={styles.stat}>
          <dt>Beim Bezahlen</dt>
          <dd data-figure="open-checkouts">{event.openCheckouts}</dd>
        </div>
        <div className={styles.stat}>
          <dt>Warteliste</dt>
          <dd data-figure="waiting">
            {event.waiting} wartend
            <span className={styles.statNote}>{event.offered} mit Angebot</span>
          </dd>
        </div>
        {ended ? (
          <div className={styles.stat}>
            <dt>Nicht erschienen</dt>
            <dd data-figure="no-shows">{event.noShows}</dd>
          </div>
        ) : null}
      </dl>

      {event.tiers.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={styles.tiers}>
            <caption className="visually-hidden">Ticketkategorien von {event.name}</caption>
            <thead>
              <tr>
                <th scope="col">Kategorie</th>
                <th scope="col">Verkauft / Plätze</th>
                <th scope="col">Beim Bezahlen</th>
              </tr>
            </thead>
            <tbody>
              {event.tiers.map((tier) => (
                <TierRow key={tier.variationId ?? 'ticket'} tier={tier} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <div className={styles.charts}>
        <FiguresChart
          title="Verkäufe"
          points={event.sales}
          until={ended ? (event.sales.at(-1)?.at ?? event.updatedAt) : event.updatedAt}
          ceiling={event.capacity}
          wording={{ of: 'Plätzen', verb: 'verkauft' }}
          scale="date"
          empty="Noch keine Tickets verkauft."
        />
        <FiguresChart
          title="Einlass"
          points={event.checkIns}
          until={ended ? (event.checkIns.at(-1)?.at ?? event.updatedAt) : event.updatedAt}
          ceiling={event.sold}
          wording={{ of: 'Tickets', verb: 'eingecheckt' }}
          scale="clock"
          empty="Noch niemand eingecheckt."
        />
      </div>

      <p className={styles.cardLinks}>
        <ButtonLink to={`?gaeste=${event.id}`} variant="secondary">
          Gästeliste<span className="visually-hidden"> von {event.name}</span>
        </ButtonLink>
      </p>

      <EventTools event={event} />
    </article>
  );
}
