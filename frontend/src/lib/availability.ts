import type { Availability } from '@awhh/machines';

/** The words for plenty left, by what is sold: an event's tickets, a tier, goods. */
export const IN_STOCK = {
  tickets: 'Tickets verfügbar',
  tier: 'Verfügbar',
  goods: 'Auf Lager',
} as const;

/**
 * Stock in words, the same on cards, event and merch pages: "Ausverkauft", "Nur noch 4
 * verfügbar"; `inStock` says plenty left in the page's words (`IN_STOCK`).
 */
export function availabilityLabel(
  availability: Availability,
  available: number | null,
  inStock: string = IN_STOCK.tickets,
): string {
  if (availability === 'sold_out') return 'Ausverkauft';
  if (availability === 'few_left') {
    return available !== null ? `Nur noch ${available} verfügbar` : 'Nur noch wenige verfügbar';
  }
  return inStock;
}
