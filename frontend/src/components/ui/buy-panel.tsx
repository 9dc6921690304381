import { useEffect, useState, type ReactNode } from 'react';
import type { Variant } from '@awhh/machines';
import { availabilityLabel } from '@/lib/availability';
import { useHydrated } from '@/lib/use-hydrated';
import {
  choiceLegend,
  firstOpenVariant,
  type Saleable,
  useOfferChoice,
  variantOptions,
} from '@/lib/use-offer-choice';
import { AddedToCart, type AddedToCartProps } from './added-to-cart';
import { Button } from './button';
import { Price } from './price';
import { QuantityStepper } from './quantity-stepper';
import { VariantChoice } from './variant-choice';
import panel from './offer-panel.module.css';

export interface BuyPanelProps {
  item: Saleable;
  /** Names the panel as a region ("Kaufen"); without it the panel is a plain box. */
  label?: string;
  /** Plenty left, in the page's words: for the product and for one variant (`IN_STOCK`). */
  inStock: string;
  variantInStock: string;
  /** The quantity stepper's accessible name ("Anzahl Tickets"). */
  quantityLabel: string;
  /** Not for sale at all (a past event): the note instead of the stock, and the button's word. */
  closed?: { note: string; button: string } | null;
  /** What went into the cart, in words ("2 Tickets „VIP“", "1 × AWHH T-Shirt (L)"). */
  describe: (took: number, variant: Variant | undefined) => string;
  /**
   * Puts the choice into the cart (wired by the route; features do not know each other) and
   * answers how many the cart took (fewer at the order limits); nothing: all of them.
   */
  onAdd: (quantity: number, variant?: Variant) => number | void;
  /** Below the cart's answer: the waiting list, the calendar link. */
  children?: ReactNode;
}

/**
 * The buy panel of the event and merch pages (rules "Everything the shop sells"): price,
 * stock, the variant (tier, size), how many, "In den Warenkorb" and the cart's answer.
 */
export function BuyPanel({
  item,
  label,
  inStock,
  variantInStock,
  quantityLabel,
  closed,
  describe,
  onAdd,
  children,
}: BuyPanelProps) {
  const hydrated = useHydrated();
  const choice = useOfferChoice(item);
  const { offer, variant, choose } = choice;
  // The variant chosen at first turned out to be held by others (the event page's live
  // availability): move to one still open.
  useEffect(() => {
    if (variant?.availability !== 'sold_out') return;
    const open = firstOpenVariant(item.variants);
    if (open) choose(open.id);
  }, [variant, item.variants, choose]);
  const [added, setAdded] = useState<AddedToCartProps['added']>(null);
  const soldOut = offer.availability === 'sold_out';
  const buyable = !soldOut && !closed && (!choice.variable || variant !== undefined);

  const content = (
    <>
      <p className={panel.price}>
        <Price price={offer.price} regularPrice={offer.regularPrice} />
      </p>
      <p
        className={`${panel.availability} ${soldOut ? panel.soldOut : offer.availability === 'few_left' ? panel.few : ''}`}
      >
        {closed ? closed.note : availabilityLabel(offer.availability, offer.available, inStock)}
      </p>
      {buyable ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const took = onAdd(choice.quantity, variant) ?? choice.quantity;
            setAdded({ took, wanted: choice.quantity, what: describe(took, variant) });
          }}
        >
          {choice.variable ? (
            <VariantChoice
              disabled={!hydrated}
              legend={choiceLegend(item.variants)}
              options={variantOptions(item.variants, (v) =>
                availabilityLabel(v.availability, v.available, variantInStock),
              )}
              value={variant?.id ?? null}
              onChange={(id) => {
                choose(id);
                setAdded(null);
              }}
            />
          ) : null}
          <div className={panel.row}>
            <span className={panel.label}>Anzahl</span>
            <QuantityStepper
              disabled={!hydrated}
              label={quantityLabel}
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
          {closed ? closed.button : 'Ausverkauft'}
        </Button>
      )}
      <AddedToCart added={added} />
      {children}
    </>
  );

  return label ? (
    <section className={panel.panel} aria-label={label}>
      {content}
    </section>
  ) : (
    <div className={panel.panel}>{content}</div>
  );
}
