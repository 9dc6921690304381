import type { Availability } from '@awhh/machines';

/** `inStock`: the words for plenty left ("Tickets verfügbar"; a ticket tier says "Verfügbar"). */
export function availabilityLabel(
  availability: Availability,
  available: number | null,
  inStock = 'Tickets verfügbar',
): string {
  if (availability === 'sold_out') return 'Ausverkauft';
  if (availability === 'few_left') {
    return available !== null ? `Nur noch ${available} verfügbar` : 'Nur noch wenige verfügbar';
  }
  return inStock;
}
