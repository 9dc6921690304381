import type { Availability } from '@awhh/machines';

export function availabilityLabel(availability: Availability, available: number | null): string {
  if (availability === 'sold_out') return 'Ausverkauft';
  if (availability === 'few_left') {
    return available !== null ? `Nur noch ${available} verfügbar` : 'Nur noch wenige verfügbar';
  }
  return 'Tickets verfügbar';
}
