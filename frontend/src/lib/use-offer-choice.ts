import { useState } from 'react';
import {
  type Availability,
  MAX_LINE_QUANTITY,
  toCents,
  type Variant,
  variantLabel,
} from '@awhh/machines';
import type { VariantOption } from '@/components/ui/variant-choice';

// rules "Everything the shop sells": a variable product is bought only as one of its
// variants. Shared by the event and merch pages (not loaded on `/`).

export interface Saleable {
  price: number;
  regularPrice: number;
  availability: Availability;
  available: number | null;
  variants: Variant[];
  /** The server's limit per order for this product, all variants together. */
  maxPerOrder: number;
}

/** The variant chosen when the page opens: the first one that can still be bought. */
export function firstOpenVariant<V extends Pick<Variant, 'availability'>>(
  variants: readonly V[],
): V | undefined {
  return variants.find((v) => v.availability !== 'sold_out');
}

/** The radio group's legend, named after the attributes ("Ticket wählen", "Größe wählen"). */
export function choiceLegend(variants: readonly Pick<Variant, 'attributes'>[]): string {
  const names = [
    ...new Set(variants.flatMap((v) => v.attributes.map((a) => a.name.trim()).filter(Boolean))),
  ];
  return names.length > 0 ? `${names.join(' und ')} wählen` : 'Variante wählen';
}

/** Every variant costs the same (sizes of a shirt): the options need not repeat the price. */
export function hasUniformPrice(variants: readonly Pick<Variant, 'price' | 'regularPrice'>[]) {
  return new Set(variants.map((v) => `${toCents(v.price)}/${toCents(v.regularPrice)}`)).size <= 1;
}

/**
 * The quantity stepper's upper bound: what is left, never more than one order may hold
 * of the product (`maxPerOrder`, the checkout's limit).
 */
export function maxQuantity(
  available: number | null,
  maxPerOrder: number = MAX_LINE_QUANTITY,
): number {
  const limit = Math.min(maxPerOrder, MAX_LINE_QUANTITY);
  return Math.max(1, Math.min(available ?? limit, limit));
}

/** The cart took fewer than asked for: the order limits (see the cart's hints) stopped it. */
export const CART_AT_LIMIT_MESSAGE =
  'Mehr davon passt nicht in eine Bestellung – dein Warenkorb ist am Limit.';

/** Said below the stepper once it stops at the order limit rather than at the stock. */
export function orderLimitNote(maxPerOrder: number): string {
  return maxPerOrder === 1
    ? 'Davon gibt es nur ein Stück pro Bestellung.'
    : `Höchstens ${maxPerOrder} pro Bestellung.`;
}

/**
 * The choice on an event or merch page: which variant (the first one still on offer to
 * begin with, so the button always adds something sensible) and how many. The quantity
 * never exceeds what the chosen variant has left.
 */
export function useOfferChoice(item: Saleable) {
  const [variantId, setVariantId] = useState<number | null>(
    () => firstOpenVariant(item.variants)?.id ?? null,
  );
  const [quantity, setQuantity] = useState(1);
  const variant = item.variants.find((v) => v.id === variantId);
  // Price and stock of what is being bought: the chosen variant, or the simple product.
  const offer: Omit<Saleable, 'variants' | 'maxPerOrder'> = variant ?? item;
  const max = maxQuantity(offer.available, item.maxPerOrder);

  const choose = (id: number) => {
    const next = item.variants.find((v) => v.id === id);
    if (!next || next.availability === 'sold_out') return;
    setVariantId(id);
    setQuantity((q) => Math.min(q, maxQuantity(next.available, item.maxPerOrder)));
  };
  const shown = Math.min(quantity, max);

  return {
    variable: item.variants.length > 0,
    variant,
    offer,
    quantity: shown,
    setQuantity,
    max,
    // The stepper stopped at the order limit, not at the stock: say why.
    limitNote:
      shown >= item.maxPerOrder && max === item.maxPerOrder
        ? orderLimitNote(item.maxPerOrder)
        : null,
    choose,
  };
}

const TONE = { available: 'normal', few_left: 'few', sold_out: 'soldOut' } as const;

/**
 * The radio options of a variable product's variants (tiers, sizes); `note` words the
 * availability as the page does ("Nur noch 4 verfügbar"). Prices are left out when every
 * variant costs the same: the price above the choice says it once.
 */
export function variantOptions(
  variants: readonly Variant[],
  note: (variant: Variant) => string,
): VariantOption[] {
  const samePrice = hasUniformPrice(variants);
  return variants.map((v) => ({
    id: v.id,
    label: v.name || variantLabel(v.attributes),
    price: samePrice ? undefined : v.price,
    regularPrice: samePrice ? undefined : v.regularPrice,
    note: note(v),
    tone: TONE[v.availability],
  }));
}
