import type { EventDetail, EventSummary } from '@awhh/machines';
import { api } from '@/config/paths';
import { apiGet } from '@/lib/api-client';

// Responses are trusted as typed: the server validates them against the shared schemas,
// and keeping zod out of the browser keeps the first load small.
export function fetchEvents(signal?: AbortSignal): Promise<EventSummary[]> {
  return apiGet<EventSummary[]>(api.events, signal);
}

export function fetchEvent(slug: string, signal?: AbortSignal): Promise<EventDetail> {
  return apiGet<EventDetail>(api.event(slug), signal);
}
