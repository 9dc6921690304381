import { useEffect, useMemo, useState } from 'react';
import {
  type EventDetail,
  formatLongDate,
  formatTime,
  type Variant,
  variantLabel,
} from '@awhh/machines';
import { api } from '@/config/paths';
import {
  choiceLegend,
  firstOpenVariant,
  useOfferChoice,
  variantOptions,
} from '@/lib/use-offer-choice';
import { useHydrated } from '@/lib/use-hydrated';
import { Button } from '@/components/ui/button';
import { AddedToCart, type AddedToCartProps } from '@/components/ui/added-to-cart';
import { Skeleton } from '@/components/ui/feedback';
import { Price } from '@/components/ui/price';
import { QuantityStepper } from '@/components/ui/quantity-stepper';
import { VariantChoice } from '@/components/ui/variant-choice';
import {
  useLiveAvailability,
  withLiveAvailability,
} from '@/features/waitlist/use-live-availability';
import { WaitlistJoin, type WaitlistUnit } from '@/features/waitlist/waitlist-join';
import { availabilityLabel } from './availability';
import panel from '@/components/ui/offer-panel.module.css';
import styles from './event-detail.module.css';
import './event-detail.css';

export interface EventDetailViewProps {
  event: EventDetail;
  /**
   * Puts the tickets into the cart (wired by the route; features do not know each other).
   * `variant`: the chosen ticket tier of a variable event.
   */
  onAdd: (quantity: number, variant?: Variant) => number | void;
}

const tierOptions = (variants: readonly Variant[]) =>
  variantOptions(variants, (v) => availabilityLabel(v.availability, v.available, 'Verfügbar'));

/** "2 Tickets „VIP“": what went into the cart. */
function ticketsText(quantity: number, tier: string | null): string {
  const tickets = quantity === 1 ? '1 Ticket' : `${quantity} Tickets`;
  return tier ? `${tickets} „${tier}“` : tickets;
}

/**
 * rules "Event page": name, German date and time, venue, image, description, price, stock;
 * rules "Everything the shop sells": a variable event is booked as one of its ticket tiers.
 */
export function EventDetailView({ event: catalogEvent, onAdd }: EventDetailViewProps) {
  const hydrated = useHydrated();
  // rules "Waiting list": places held by open checkouts and offers are not for sale, though
  // the catalog's stock still counts them; once in the browser the page asks the checkout.
  // Asked again when the waiting list answers that places are on sale after all.
  const [liveAsked, setLiveAsked] = useState(0);
  const live = useLiveAvailability(catalogEvent.id, liveAsked);
  const event = useMemo(() => withLiveAvailability(catalogEvent, live), [catalogEvent, live]);
  const choice = useOfferChoice(event);
  const { offer, variant } = choice;
  const { choose } = choice;
  // The tier chosen at first turned out to be held by others: move to one still open.
  useEffect(() => {
    if (variant?.availability !== 'sold_out') return;
    const open = firstOpenVariant(event.variants);
    if (open) choose(open.id);
  }, [variant, event.variants, choose]);
  const [added, setAdded] = useState<AddedToCartProps['added']>(null);
  const date = formatLongDate(event.startsAt);
  const time = formatTime(event.startsAt);
  const soldOut = offer.availability === 'sold_out';
  const bookable = !soldOut && !event.past && (!choice.variable || variant !== undefined);
  // rules "Waiting list": a sold-out event, or each sold-out tier, can be waited for.
  const waitable: WaitlistUnit[] = event.past
    ? []
    : choice.variable
      ? event.variants
          .filter((v) => v.availability === 'sold_out')
          .map((v) => ({
            productId: event.id,
            variationId: v.id,
            label: v.name || variantLabel(v.attributes),
          }))
      : soldOut
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
        <div className={panel.panel}>
          <p className={panel.price}>
            <Price price={offer.price} regularPrice={offer.regularPrice} />
          </p>
          <p
            className={`${panel.availability} ${soldOut ? panel.soldOut : offer.availability === 'few_left' ? panel.few : ''}`}
          >
            {event.past
              ? 'Dieses Event hat bereits stattgefunden.'
              : availabilityLabel(offer.availability, offer.available)}
          </p>
          {bookable ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                const took = onAdd(choice.quantity, variant) ?? choice.quantity;
                const tier = variant ? variant.name || variantLabel(variant.attributes) : null;
                setAdded({ took, wanted: choice.quantity, what: ticketsText(took, tier) });
              }}
            >
              {choice.variable ? (
                <VariantChoice
                  disabled={!hydrated}
                  legend={choiceLegend(event.variants)}
                  options={tierOptions(event.variants)}
                  value={variant?.id ?? null}
                  onChange={(id) => {
                    choice.choose(id);
                    setAdded(null);
                  }}
                />
              ) : null}
              <div className={panel.row}>
                <span className={panel.label} id="qty-label">
                  Anzahl
                </span>
                <QuantityStepper
                  disabled={!hydrated}
                  label="Anzahl Tickets"
                  value={choice.quantity}
                  min={1}
                  max={choice.max}
                  onChange={(n) => {
                    choice.setQuantity(n);
                    setAdded(null);
                  }}
                />
                {choice.limitNote ? <span className={panel.label}>{choice.limitNote}</span> : null}
              </div>
              {/* Enabled once the page is hydrated: before, a click would do nothing. */}
              <Button type="submit" block disabled={!hydrated}>
                In den Warenkorb
              </Button>
            </form>
          ) : (
            <Button block disabled>
              {event.past ? 'Vergangen' : 'Ausverkauft'}
            </Button>
          )}
          <AddedToCart added={added} />
          {waitable.length > 0 ? (
            <WaitlistJoin units={waitable} onPlacesFree={() => setLiveAsked((n) => n + 1)} />
          ) : null}
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
      <div className={panel.panel}>
        <Skeleton height="2.4rem" width="40%" style={{ marginBottom: '1rem' }} />
        <Skeleton height="3rem" width="100%" />
      </div>
    </div>
  );
}
