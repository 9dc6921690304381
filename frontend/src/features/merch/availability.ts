import type { Availability } from '@awhh/machines';

/** Stock in words for products (events say "Tickets verfügbar"). */
export function stockLabel(availability: Availability, available: number | null): string {
  if (availability === 'sold_out') return 'Ausverkauft';
  if (availability === 'few_left') {
    return available !== null ? `Nur noch ${available} verfügbar` : 'Nur noch wenige verfügbar';
  }
  return 'Auf Lager';
}
