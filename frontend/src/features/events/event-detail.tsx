import { useState } from 'react';
import { Link } from 'react-router';
import {
  formatEuro,
  MAX_LINE_QUANTITY,
  type EventDetail,
  formatLongDate,
  formatTime,
} from '@awhh/machines';
import { api, paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { Alert, Skeleton } from '@/components/ui/feedback';
import { QuantityStepper } from '@/components/ui/quantity-stepper';
import { availabilityLabel } from './availability';
import styles from './event-detail.module.css';
import './event-detail.css';

export interface EventDetailViewProps {
  event: EventDetail;
  /** Puts the tickets into the cart (wired by the route; features do not know each other). */
  onAdd: (quantity: number) => void;
}

/** DESIGN "Event page": name, German date and time, venue, image, description, price, stock. */
export function EventDetailView({ event, onAdd }: EventDetailViewProps) {
  const [quantity, setQuantity] = useState(1);
  const [added, setAdded] = useState<number | null>(null);
  const date = formatLongDate(event.startsAt);
  const time = formatTime(event.startsAt);
  const soldOut = event.availability === 'sold_out';
  const bookable = !soldOut && !event.past;
  const max = Math.max(1, Math.min(event.available ?? MAX_LINE_QUANTITY, MAX_LINE_QUANTITY));

  return (
    <div className="container event-detail">
      <div>
        <span className="event-detail__eyebrow">{event.past ? 'Vergangenes Event' : 'Event'}</span>
        <h1>{event.name}</h1>
        {event.image ? (
          <div className="event-detail__hero">
            <img src={event.image.src} alt={event.image.alt ?? ''} width={1280} height={720} />
          </div>
        ) : null}
        <dl className="event-detail__facts">
          <div>
            <dt>Datum</dt>
            <dd>{date ?? 'Termin folgt'}</dd>
          </div>
          {time ? (
            <div>
              <dt>Beginn</dt>
              <dd>{time}</dd>
            </div>
          ) : null}
          {event.venue ? (
            <div>
              <dt>Location</dt>
              <dd>{event.venue}</dd>
            </div>
          ) : null}
        </dl>
        <h2 className={styles.about}>Über den Abend</h2>
        {/* Sanitised on the server (DESIGN: HTML sanitized). */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: event.descriptionHtml }} />
      </div>
      <aside className={styles.aside} aria-label="Tickets">
        <div className={styles.panel}>
          <p className={styles.price}>{formatEuro(event.price)}</p>
          <p
            className={`${styles.availability} ${soldOut ? styles.soldOut : event.availability === 'few_left' ? styles.few : ''}`}
          >
            {event.past
              ? 'Dieses Event hat bereits stattgefunden.'
              : availabilityLabel(event.availability, event.available)}
          </p>
          {bookable ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                onAdd(quantity);
                setAdded(quantity);
              }}
            >
              <div className={styles.row}>
                <span className={styles.label} id="qty-label">
                  Anzahl
                </span>
                <QuantityStepper
                  label="Anzahl Tickets"
                  value={quantity}
                  min={1}
                  max={max}
                  onChange={(n) => {
                    setQuantity(n);
                    setAdded(null);
                  }}
                />
              </div>
              <Button type="submit" block>
                In den Warenkorb
              </Button>
            </form>
          ) : (
            <Button block disabled>
              {event.past ? 'Vergangen' : 'Ausverkauft'}
            </Button>
          )}
          <div aria-live="polite" className={styles.added}>
            {added !== null ? (
              <Alert tone="success" title="Im Warenkorb">
                <p>
                  {added === 1 ? '1 Ticket wurde' : `${added} Tickets wurden`} in den Warenkorb
                  gelegt. <Link to={paths.cart}>Zum Warenkorb</Link>
                </p>
              </Alert>
            ) : null}
          </div>
          {!event.past && event.startsAt ? (
            <a className={styles.calendar} href={api.eventCalendar(event.slug)} download>
              Zum Kalender hinzufügen
            </a>
          ) : null}
        </div>
      </aside>
    </div>
  );
}

export function EventDetailSkeleton() {
  return (
    <div className="container event-detail">
      <div>
        <Skeleton height="1rem" width="6rem" style={{ marginBottom: '1rem' }} />
        <Skeleton height="3rem" width="80%" style={{ marginBottom: '1.5rem' }} />
        <Skeleton style={{ aspectRatio: '16 / 9', width: '100%', marginBottom: '1.5rem' }} />
        <Skeleton height="1rem" width="60%" style={{ marginBottom: '0.5rem' }} />
        <Skeleton height="1rem" width="90%" />
      </div>
      <div className={styles.panel}>
        <Skeleton height="2.4rem" width="40%" style={{ marginBottom: '1rem' }} />
        <Skeleton height="3rem" width="100%" />
      </div>
    </div>
  );
}
