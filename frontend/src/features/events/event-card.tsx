import { Link } from 'react-router';
import { type EventSummary, formatDayMonth, formatLongDate, formatTime } from '@awhh/machines';
import { paths } from '@/config/paths';
import { availabilityLabel } from '@/lib/availability';
import { hasPriceRange } from '@/lib/offer';
import { Skeleton } from '@/components/ui/feedback';
import { Price } from '@/components/ui/price';
import styles from './event-card.module.css';

export function EventCard({ event }: { event: EventSummary }) {
  const dm = formatDayMonth(event.startsAt);
  const date = formatLongDate(event.startsAt);
  const time = formatTime(event.startsAt);
  return (
    <article className={event.past ? `${styles.card} ${styles.past}` : styles.card}>
      <div className={styles.media}>
        {event.image ? (
          <img
            src={event.image.src}
            alt={event.image.alt ?? ''}
            loading="lazy"
            width={640}
            height={400}
          />
        ) : null}
        {dm ? (
          <span className={styles.date} aria-hidden="true">
            <span className={styles.day}>{dm.day.replace('.', '')}</span>
            <span className={styles.month}>{dm.month.replace('.', '')}</span>
          </span>
        ) : null}
      </div>
      <div className={styles.body}>
        <h3 className={styles.title}>
          <Link to={paths.event(event.slug)}>{event.name}</Link>
        </h3>
        <p className={styles.meta}>
          {date ? `${date}${time ? `, ${time}` : ''}` : 'Termin folgt'}
          {event.venue ? ` · ${event.venue}` : ''}
        </p>
        <div className={styles.footer}>
          {event.past ? (
            <span className={styles.price}>Vergangen</span>
          ) : (
            // rules "Everything the shop sells": "ab" only when the tiers cost different amounts.
            <Price
              className={styles.price}
              price={event.price}
              regularPrice={event.regularPrice}
              from={hasPriceRange(event.variants)}
            />
          )}
          {event.past ? null : (
            <span
              className={
                event.availability === 'sold_out'
                  ? `${styles.status} ${styles.soldOut}`
                  : styles.status
              }
            >
              {availabilityLabel(event.availability, event.available)}
            </span>
          )}
        </div>
      </div>
    </article>
  );
}

export function EventGrid({ events }: { events: EventSummary[] }) {
  return (
    <ul className={styles.grid}>
      {events.map((event) => (
        <li key={event.id} style={{ display: 'grid' }}>
          <EventCard event={event} />
        </li>
      ))}
    </ul>
  );
}

export function EventGridSkeleton({ count = 3 }: { count?: number }) {
  return (
    <ul className={styles.grid} aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className={styles.card}>
          <Skeleton style={{ aspectRatio: '16 / 10', width: '100%', borderRadius: 0 }} />
          <div className={styles.body}>
            <Skeleton height="1.5rem" width="70%" />
            <Skeleton height="1rem" width="90%" />
            <Skeleton height="1rem" width="40%" />
          </div>
        </li>
      ))}
    </ul>
  );
}
