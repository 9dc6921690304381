import type {
  OrganizerDoorCode,
  OrganizerDoorDevices,
  OrganizerMail,
  OrganizerMailDraft,
  OrganizerMailPreview,
  OrganizerMails,
  OrganizerMailTest,
} from '@awhh/machines';
import {
  ApiRequestError,
  apiGet,
  apiPost,
  apiRequest,
  NETWORK_ERROR_MESSAGE,
} from '@/lib/api-client';

// rules "The organizer": the badges, the mail to every holder and the door code.
export const extrasApi = {
  badges: (eventId: number, layout: 'a4' | 'label') =>
    `/api/organizer/events/${eventId}/badges.pdf${layout === 'label' ? '?layout=label' : ''}`,
  mails: (eventId: number) => `/api/organizer/events/${eventId}/mails`,
  doorCode: '/api/organizer/door-code',
  doorDevices: '/api/organizer/door-devices',
  doorDevice: (id: string) => `/api/organizer/door-devices/${encodeURIComponent(id)}`,
} as const;

/** The badge PDF as a file to save; the server's German message when it fails. */
export async function fetchBadges(eventId: number, layout: 'a4' | 'label'): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(extrasApi.badges(eventId, layout));
  } catch {
    throw new ApiRequestError({
      statusCode: 0,
      error: 'Network Error',
      message: NETWORK_ERROR_MESSAGE,
    });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    throw new ApiRequestError({
      statusCode: response.status,
      error: response.statusText || 'Error',
      message:
        typeof body?.message === 'string'
          ? body.message
          : 'Die Namensschilder konnten nicht erstellt werden.',
    });
  }
  return response.blob();
}

export const fetchMails = (eventId: number, signal?: AbortSignal) =>
  apiGet<OrganizerMails>(extrasApi.mails(eventId), signal);
export const previewMail = (eventId: number, draft: OrganizerMailDraft) =>
  apiPost<OrganizerMailPreview>(`${extrasApi.mails(eventId)}/preview`, draft);
export const testMail = (eventId: number, draft: OrganizerMailDraft) =>
  apiPost<OrganizerMailTest>(`${extrasApi.mails(eventId)}/test`, draft);
export const sendMail = (eventId: number, draft: OrganizerMailDraft, sendId: string) =>
  apiPost<{ mail: OrganizerMail }>(extrasApi.mails(eventId), { ...draft, sendId });

export const fetchDoorCode = (signal?: AbortSignal) =>
  apiGet<OrganizerDoorCode>(extrasApi.doorCode, signal);
export const renewDoorCode = () => apiPost<OrganizerDoorCode>(extrasApi.doorCode, {});
export const fetchDoorDevices = (signal?: AbortSignal) =>
  apiGet<OrganizerDoorDevices>(extrasApi.doorDevices, signal);
export const endDoorDevice = (id: string) =>
  apiRequest<null>(extrasApi.doorDevice(id), { method: 'DELETE' });
export const endDoorDevices = () =>
  apiRequest<{ ended: number }>(extrasApi.doorDevices, { method: 'DELETE' });
