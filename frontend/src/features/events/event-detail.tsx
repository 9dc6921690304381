import type { ReactNode } from 'react';
import {
  type EventDetail,
  formatLongDate,
  formatTime,
  type Variant,
  variantLabel,
} from '@awhh/machines';
import { api } from '@/config/paths';
import { IN_STOCK } from '@/lib/availability';
import { BuyPanel } from '@/components/ui/buy-panel';
import { Skeleton } from '@/components/ui/feedback';
import panel from '@/components/ui/offer-panel.module.css';
import styles from './event-detail.module.css';
import './event-detail.css';

/** A sold-out stock unit a visitor can wait for: the event itself or one of its tiers. */
export interface SoldOutUnit {
  productId: number;
  variationId?: number;
  /** "VIP"; the event's name for an event without tiers. */
  label: string;
}

export interface EventDetailViewProps {
  /** The event as the page shows it (the route applies the checkout's live availability). */
  event: EventDetail;
  /**
   * Puts the tickets into the cart (wired by the route; features do not know each other).
   * `variant`: the chosen ticket tier of a variable event.
   */
  onAdd: (quantity: number, variant?: Variant) => number | void;
  /** The waiting list's form for the sold-out units (the route puts it in). */
  waitlist?: (units: SoldOutUnit[]) => ReactNode;
}

/** "2 Tickets „VIP“": what went into the cart. */
function ticketsText(quantity: number, tier: string | null): string {
  const tickets = quantity === 1 ? '1 Ticket' : `${quantity} Tickets`;
  return tier ? `${tickets} „${tier}“` : tickets;
}

const describeTickets = (took: number, variant: Variant | undefined) =>
  ticketsText(took, variant ? variant.name || variantLabel(variant.attributes) : null);

/**
 * rules "Event page": name, German date and time, venue, image, description, price, stock;
 * rules "Everything the shop sells": a variable event is booked as one of its ticket tiers.
 */
export function EventDetailView({ event, onAdd, waitlist }: EventDetailViewProps) {
  const date = formatLongDate(event.startsAt);
  const time = formatTime(event.startsAt);
  const variable = event.variants.length > 0;
  // rules "Waiting list": a sold-out event, or each sold-out tier, can be waited for.
  const waitable: SoldOutUnit[] = event.past
    ? []
    : variable
      ? event.variants
          .filter((v) => v.availability === 'sold_out')
          .map((v) => ({
            productId: event.id,
            variationId: v.id,
            label: v.name || variantLabel(v.attributes),
          }))
      : event.availability === 'sold_out'
        ? [{ productId: event.id, label: event.name }]
        : [];

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
        {/* Sanitised on the server (rules "/blog"). */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: event.descriptionHtml }} />
      </div>
      <aside className={styles.aside} aria-label="Tickets">
        <BuyPanel
          item={event}
          inStock={IN_STOCK.tickets}
          variantInStock={IN_STOCK.tier}
          quantityLabel="Anzahl Tickets"
          closed={
            event.past
              ? { note: 'Dieses Event hat bereits stattgefunden.', button: 'Vergangen' }
              : null
          }
          describe={describeTickets}
          onAdd={onAdd}
        >
          {waitable.length > 0 && waitlist ? waitlist(waitable) : null}
          {!event.past && event.startsAt ? (
            <a className={styles.calendar} href={api.eventCalendar(event.slug)} download>
              Zum Kalender hinzufügen
            </a>
          ) : null}
        </BuyPanel>
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
      <div className={panel.panel}>
        <Skeleton height="2.4rem" width="40%" style={{ marginBottom: '1rem' }} />
        <Skeleton height="3rem" width="100%" />
      </div>
    </div>
  );
}
