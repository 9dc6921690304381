import type {
  DoorEventSummary,
  DoorFailure,
  DoorScan,
  DoorScanResult,
  DoorSession,
  DoorTicketList,
} from '@awhh/machines';
import type { JWK } from 'jose';

// The door's API (rules "Tickets and the door"); every call but the public key carries
// a bearer token: the door code once, to get a door session, then the session.
export const checkinApi = {
  session: '/api/checkin/session',
  events: '/api/checkin/events',
  tickets: (eventId: number) => `/api/checkin/events/${eventId}/tickets`,
  scans: '/api/checkin/scans',
  publicKey: '/api/tickets/public-key',
  mailTest: '/api/mail-test',
} as const;

export const OFFLINE_MESSAGE = 'Keine Verbindung zum Server.';
const FALLBACK_MESSAGE = 'Der Server hat die Anfrage nicht angenommen. Bitte versuche es erneut.';

/** A failed door request, with what the machine needs (status, German message, lockout). */
export class DoorRequestError extends Error implements DoorFailure {
  readonly status: number;
  readonly retryAfterSeconds?: number;

  constructor(status: number, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'DoorRequestError';
    this.status = status;
    if (retryAfterSeconds !== undefined) this.retryAfterSeconds = retryAfterSeconds;
  }
}

function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(1, Math.ceil((date - Date.now()) / 1000));
}

async function request<T>(
  url: string,
  code: string | null,
  init: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (code !== null) headers.authorization = `Bearer ${code}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
      // The list and the key must be today's, never an HTTP cache's.
      cache: 'no-store',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new DoorRequestError(0, OFFLINE_MESSAGE);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  if (!response.ok) {
    const body = json as { message?: unknown } | null;
    const message =
      typeof body?.message === 'string' && body.message.trim() !== ''
        ? body.message
        : response.status === 401
          ? 'Der Türcode stimmt nicht.'
          : response.status === 429
            ? 'Zu viele Versuche. Bitte warte einen Moment.'
            : FALLBACK_MESSAGE;
    throw new DoorRequestError(
      response.status,
      message,
      response.status === 429 ? (retryAfter(response.headers.get('retry-after')) ?? 60) : undefined,
    );
  }
  return json as T;
}

/** The typed door code for a door session, so the device never sends the code again. */
export function createDoorSession(code: string, device: string): Promise<DoorSession> {
  // The device's name is what the organizer sees in the list of signed-in devices.
  return request<DoorSession>(checkinApi.session, code, { method: 'POST', body: { device } });
}

export async function fetchDoorEvents(code: string): Promise<DoorEventSummary[]> {
  const body = await request<{ events: DoorEventSummary[] }>(checkinApi.events, code);
  return body.events;
}

export function fetchTicketList(code: string, eventId: number): Promise<DoorTicketList> {
  return request<DoorTicketList>(checkinApi.tickets(eventId), code);
}

export function fetchPublicKey(): Promise<JWK> {
  return request<JWK>(checkinApi.publicKey, null);
}

export async function postScans(
  code: string,
  scans: DoorScan[],
  signal?: AbortSignal,
): Promise<DoorScanResult[]> {
  const body = await request<{ results: DoorScanResult[] }>(checkinApi.scans, code, {
    method: 'POST',
    body: { scans },
    signal,
  });
  return body.results;
}
