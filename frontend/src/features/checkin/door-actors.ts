import { fromCallback, fromPromise, type EventObject } from 'xstate';
import {
  decideCodeVerdict,
  decideVerdict,
  type DoorRestored,
  type DoorScanResult,
  type DoorUnlocked,
  type DoorVerdict,
  doorMachine,
  isDoorSession,
  normalizeTicketCode,
  orderDoorEvents,
  ticketCodeKey,
  tokenFromInput,
} from '@awhh/machines';
import {
  createDoorSession,
  DoorRequestError,
  fetchDoorEvents,
  fetchPublicKey,
  fetchTicketList,
  postScans,
} from './api';
import { type CheckInProof, doorStore } from './door-store';
import { loadQrDecoder } from './qr-decoder';

// The door machine's I/O on this device (rules "Tickets and the door").

/** The list refreshes in the background this often while the network is there. */
export const LIST_REFRESH_MS = 30_000;
/** Queued scans are retried this often until they are sent. */
export const OUTBOX_RETRY_MS = 5_000;
/**
 * rules "Tickets and the door": online, a check-in is asked of the server first; without an
 * answer this soon the device's list decides ("Offline geprüft").
 */
export const ONLINE_ANSWER_MS = 1_500;
/** Scans per request; a long offline stretch is sent in parts. */
const BATCH = 100;

const loadVerifier = () => import('./verify-token');

/** A check-in wants to reach the server now, not at the next tick. */
const syncNow = new EventTarget();

/**
 * Loads what scanning needs while the network is there: the verifier and the QR reader
 * (with its wasm), so the service worker has them for an offline reload.
 */
export async function prepareScanning(): Promise<void> {
  const { publicKey } = doorStore.verifyInput();
  const [verifier] = await Promise.all([loadVerifier(), loadQrDecoder().catch(() => null)]);
  if (publicKey) await verifier.warmUp(publicKey).catch(() => undefined);
}

async function flushOutbox(code: string): Promise<void> {
  const queued = await doorStore.queued();
  for (let i = 0; i < queued.length; i += BATCH) {
    const batch = queued.slice(i, i + BATCH);
    const results = await postScans(
      code,
      batch.map(({ scanId, token, code: typed, eventId, scannedAt, device }) =>
        token !== undefined
          ? { scanId, token, scannedAt, device }
          : { scanId, code: typed, eventId, scannedAt, device },
      ),
    );
    await doorStore.applyResults(batch, results);
  }
}

/**
 * Records the check-in on the device, then asks the server in one round trip: its answer
 * decides (a ticket cancelled after the list was loaded is "Storniert" at once, one let in
 * at another door "Bereits eingecheckt"); offline or without an answer within 1.5 s the
 * device's verdict stands, marked as checked offline, and the scan is synced later.
 */
async function checkIn(
  verdict: Extract<DoorVerdict, { kind: 'valid' }>,
  proof: CheckInProof,
  session: string,
): Promise<DoorVerdict> {
  const scan = await doorStore.checkIn(verdict.ticket.id, proof);
  if (!scan || !session || (typeof navigator !== 'undefined' && navigator.onLine === false)) {
    syncNow.dispatchEvent(new Event('sync'));
    return { ...verdict, offline: true };
  }
  const { ticketId: _ticket, eventId, ...sent } = scan;
  const wire =
    sent.token !== undefined
      ? { scanId: sent.scanId, token: sent.token, scannedAt: sent.scannedAt, device: sent.device }
      : {
          scanId: sent.scanId,
          code: sent.code,
          eventId,
          scannedAt: sent.scannedAt,
          device: sent.device,
        };
  let result: DoorScanResult | undefined;
  try {
    [result] = await postScans(session, [wire], AbortSignal.timeout(ONLINE_ANSWER_MS));
  } catch {
    result = undefined;
  }
  if (!result) {
    syncNow.dispatchEvent(new Event('sync'));
    return { ...verdict, offline: true };
  }
  await doorStore.confirmed(scan, result);
  switch (result.status) {
    case 'revoked':
      return { kind: 'revoked', ticket: verdict.ticket };
    case 'already':
      return {
        kind: 'already',
        ticket: verdict.ticket,
        at: result.firstScannedAt ?? scan.scannedAt,
        device: result.firstDevice ?? null,
      };
    case 'invalid':
      return { kind: 'invalid', reason: 'unknown' };
    // The server's clock says check-in has not opened (the device's runs late): not let in.
    case 'early':
      return result.opensAt
        ? { kind: 'tooEarly', ticket: verdict.ticket, opensAt: result.opensAt }
        : { kind: 'invalid', reason: 'unknown' };
    default:
      return verdict;
  }
}

export function createDoorMachine() {
  return doorMachine.provide({
    actors: {
      restoreDoor: fromPromise<DoorRestored>(() => doorStore.restore()),
      // A typed code (or one a device saved before door sessions existed) is traded for a
      // door session at once: the device keeps and sends only the session from then on.
      listEvents: fromPromise<DoorUnlocked, { code: string }>(async ({ input }) => {
        const session = isDoorSession(input.code)
          ? input.code
          : (await createDoorSession(input.code, doorStore.currentDevice)).token;
        const events = await fetchDoorEvents(session);
        await doorStore.saveCode(session, events);
        return { events: orderDoorEvents(events, new Date()), code: session };
      }),
      downloadEvent: fromPromise<void, { code: string; eventId: number }>(async ({ input }) => {
        try {
          const [list, key] = await Promise.all([
            fetchTicketList(input.code, input.eventId),
            fetchPublicKey(),
          ]);
          await doorStore.saveEvent(list, key);
        } catch (error) {
          // Without network a list already on the device is good enough to scan with.
          const offline = error instanceof DoorRequestError && error.status === 0;
          if (!(offline && (await doorStore.hasList(input.eventId)))) throw error;
        }
        await prepareScanning();
      }),
      // A QR code or a typed token or ticket address is verified with the public key; a
      // typed short code (or a guest-list tap, which sends the ticket's code) is looked up
      // in the list. The same rules decide either way (rules "Tickets and the door").
      verifyScan: fromPromise<DoorVerdict, { text: string; eventId: number; code: string }>(
        async ({ input }) => {
          const { publicKey, tickets, byCode, elsewhere, checkins, events } =
            doorStore.verifyInput();
          const token = tokenFromInput(input.text);
          if (token) {
            const { verifyTicketToken } = await loadVerifier();
            if (!publicKey) throw new Error('Kein Schlüssel auf dem Gerät.');
            const claims = await verifyTicketToken(token, publicKey);
            const verdict = decideVerdict({
              claims,
              eventId: input.eventId,
              tickets,
              checkins,
              events,
              now: new Date(),
            });
            return verdict.kind === 'valid' ? checkIn(verdict, { token }, input.code) : verdict;
          }
          const code = normalizeTicketCode(input.text);
          if (!code) return { kind: 'invalid', reason: 'unreadable' };
          const otherEventId = byCode.has(code)
            ? null
            : (elsewhere.get(ticketCodeKey(code)) ?? null);
          const verdict = decideCodeVerdict({
            code,
            byCode,
            checkins,
            otherEventId,
            events,
            eventId: input.eventId,
            now: new Date(),
          });
          return verdict.kind === 'valid' ? checkIn(verdict, { code }, input.code) : verdict;
        },
      ),
      syncInBackground: fromCallback<EventObject, { code: string; eventId: number }>(
        ({ input, sendBack }) => {
          let stopped = false;
          let running = false;
          let lastRefresh = 0;

          const tick = async (refresh: boolean) => {
            if (stopped || running) return;
            running = true;
            try {
              await flushOutbox(input.code);
              if (refresh || Date.now() - lastRefresh >= LIST_REFRESH_MS) {
                await doorStore.replaceList(await fetchTicketList(input.code, input.eventId));
                lastRefresh = Date.now();
              }
            } catch (error) {
              if (error instanceof DoorRequestError && error.status === 401) {
                sendBack({ type: 'door.codeRejected' });
              }
              // Offline or a server hiccup: the queue stays and the next tick tries again.
            } finally {
              running = false;
            }
          };

          const onOnline = () => void tick(true);
          const onScan = () => void tick(false);
          window.addEventListener('online', onOnline);
          syncNow.addEventListener('sync', onScan);
          const timer = window.setInterval(() => void tick(false), OUTBOX_RETRY_MS);
          void tick(true);
          return () => {
            stopped = true;
            window.clearInterval(timer);
            window.removeEventListener('online', onOnline);
            syncNow.removeEventListener('sync', onScan);
          };
        },
      ),
    },
    actions: {
      forgetCode: () => void doorStore.forgetCode(),
    },
  });
}
