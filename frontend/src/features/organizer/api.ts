import type {
  OrganizerAccountSignIn,
  OrganizerCodeSignIn,
  OrganizerEvents,
  OrganizerSession,
} from '@awhh/machines';
import { apiGet, apiRequest } from '@/lib/api-client';

// rules "The organizer": /veranstalter's API. The session is an HttpOnly cookie the server
// sets and clears; this page never sees it, the browser sends it with every request.
export const organizerApi = {
  session: '/api/organizer/session',
  sessions: '/api/organizer/sessions',
  events: '/api/organizer/events',
  live: (eventId: number) => `/api/organizer/events/${eventId}/live`,
} as const;

export function fetchOrganizerSession(signal?: AbortSignal): Promise<OrganizerSession> {
  return apiGet<OrganizerSession>(organizerApi.session, signal);
}

export async function signInOrganizer(
  credentials: OrganizerAccountSignIn | OrganizerCodeSignIn,
): Promise<void> {
  await apiRequest<null>(organizerApi.session, { method: 'POST', body: credentials });
}

/** Ends this session everywhere; with `everywhere`, every organizer session on every device. */
export async function signOutOrganizer(everywhere = false): Promise<void> {
  await apiRequest<null>(everywhere ? organizerApi.sessions : organizerApi.session, {
    method: 'DELETE',
  });
}

export function fetchOrganizerEvents(signal?: AbortSignal): Promise<OrganizerEvents> {
  return apiGet<OrganizerEvents>(organizerApi.events, signal);
}
