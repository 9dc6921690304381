import { assign, emit, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import type { DoorEventSummary, DoorFailure, DoorUnlocked, DoorVerdict } from './door.types.js';

// The door check-in page as a statechart (rules "Tickets and the door"): the door code
// unlocks it, the staff choose the event, its ticket list comes onto the device, then
// scanning and a verdict per code. All I/O (network, IndexedDB, signature check) is
// injected; the page provides it with `doorMachine.provide`.

export const DOOR_CODE_EMPTY_MESSAGE = 'Bitte gib den Türcode ein.';
export const DOOR_FALLBACK_MESSAGE = 'Das hat nicht geklappt. Bitte versuche es erneut.';
/** How long a verdict fills the screen before the camera view returns. */
export const VERDICT_MS = 2500;

export interface DoorContext {
  /** What the device sends: the typed door code until the server traded it for a session. */
  code: string | null;
  events: DoorEventSummary[];
  eventId: number | null;
  error: string | null;
  retryAfterSeconds: number;
  verdict: DoorVerdict | null;
  /** What was scanned last, for the verdict's "Erneut prüfen". */
  scanned: string | null;
}

export interface DoorRestored {
  code: string | null;
  eventId: number | null;
  events: DoorEventSummary[];
  /** The chosen event's ticket list is on the device, so scanning works offline. */
  hasList: boolean;
}

export type DoorEvent =
  | { type: 'door.unlock'; code: string }
  | { type: 'door.lock' }
  | { type: 'door.codeRejected' }
  | { type: 'event.choose'; eventId: number }
  | { type: 'event.change' }
  | { type: 'events.reload' }
  | { type: 'scan.detected'; text: string }
  | { type: 'verdict.dismiss' };

export type DoorEmitted = { type: 'door.verdict'; verdict: DoorVerdict };

/** The failure as the machine reads it: status, German message, lockout length. */
export function doorFailure(error: unknown): DoorFailure {
  if (typeof error === 'object' && error !== null) {
    const e = error as Partial<DoorFailure> & { message?: unknown };
    const message =
      typeof e.message === 'string' && e.message.trim() !== '' ? e.message : DOOR_FALLBACK_MESSAGE;
    return {
      status: typeof e.status === 'number' ? e.status : 0,
      message,
      ...(typeof e.retryAfterSeconds === 'number'
        ? { retryAfterSeconds: e.retryAfterSeconds }
        : {}),
    };
  }
  return { status: 0, message: DOOR_FALLBACK_MESSAGE };
}

/** A door session (`POST /api/checkin/session`) starts so; anything the staff type is a code. */
export function isDoorSession(credential: string): boolean {
  return credential.startsWith('door.');
}

const errorOf = (event: EventObject) => doorFailure((event as { error?: unknown }).error);

export const doorMachine = setup({
  types: {
    context: {} as DoorContext,
    events: {} as DoorEvent,
    emitted: {} as DoorEmitted,
  },
  actors: {
    restoreDoor: fromPromise<DoorRestored>(async () => {
      throw new Error('restoreDoor must be provided');
    }),
    // Checks the code against the server, trades it for a door session and keeps that on
    // the device (never the code itself).
    listEvents: fromPromise<DoorUnlocked, { code: string }>(async () => {
      throw new Error('listEvents must be provided');
    }),
    // The event's ticket list and the public key onto the device.
    downloadEvent: fromPromise<void, { code: string; eventId: number }>(async () => {
      throw new Error('downloadEvent must be provided');
    }),
    verifyScan: fromPromise<DoorVerdict, { text: string; eventId: number; code: string }>(
      async () => {
        throw new Error('verifyScan must be provided');
      },
    ),
    // Sends queued scans and refreshes the list while the door is open; reports a
    // rejected code with `door.codeRejected`.
    syncInBackground: fromCallback<EventObject, { code: string; eventId: number }>(() => {
      return () => {};
    }),
  },
  actions: {
    forgetCode: () => {},
  },
  guards: {
    hasCode: ({ event }) => event.type === 'door.unlock' && event.code.trim() !== '',
    hasSavedEvent: ({ event }) => {
      const out = (event as unknown as { output: DoorRestored }).output;
      return out.code !== null && out.eventId !== null && out.hasList;
    },
    hasSavedCode: ({ event }) =>
      (event as unknown as { output: DoorRestored }).output.code !== null,
    isLockedOut: ({ event }) => errorOf(event).status === 429,
    isCodeRejected: ({ event }) => errorOf(event).status === 401,
    hasEvents: ({ context }) => context.events.length > 0,
  },
  delays: {
    lockout: ({ context }) => Math.max(1, context.retryAfterSeconds) * 1000,
    verdict: VERDICT_MS,
  },
}).createMachine({
  id: 'door',
  context: {
    code: null,
    events: [],
    eventId: null,
    error: null,
    retryAfterSeconds: 0,
    verdict: null,
    scanned: null,
  },
  initial: 'restoring',
  states: {
    restoring: {
      invoke: {
        id: 'restoreDoor',
        src: 'restoreDoor',
        onDone: [
          {
            guard: 'hasSavedEvent',
            target: 'open',
            actions: assign(({ event }) => ({
              code: event.output.code,
              eventId: event.output.eventId,
              events: event.output.events,
            })),
          },
          {
            guard: 'hasSavedCode',
            target: 'unlocking',
            actions: assign(({ event }) => ({
              code: event.output.code,
              events: event.output.events,
            })),
          },
          { target: 'locked' },
        ],
        onError: { target: 'locked' },
      },
    },
    locked: {
      on: {
        'door.unlock': [
          {
            guard: 'hasCode',
            target: 'unlocking',
            actions: assign({ code: ({ event }) => event.code.trim(), error: null }),
          },
          { actions: assign({ error: DOOR_CODE_EMPTY_MESSAGE }) },
        ],
      },
    },
    unlocking: {
      invoke: {
        id: 'listEvents',
        src: 'listEvents',
        input: ({ context }) => ({ code: context.code ?? '' }),
        onDone: {
          target: 'choosing',
          actions: assign({
            events: ({ event }) => event.output.events,
            code: ({ event }) => event.output.code,
            error: null,
          }),
        },
        onError: [
          {
            guard: 'isLockedOut',
            target: 'lockedOut',
            actions: [
              assign(({ event }) => ({
                code: null,
                error: errorOf(event).message,
                retryAfterSeconds: errorOf(event).retryAfterSeconds ?? 60,
              })),
              'forgetCode',
            ],
          },
          {
            guard: 'isCodeRejected',
            target: 'locked',
            actions: [
              assign(({ event }) => ({ code: null, error: errorOf(event).message })),
              'forgetCode',
            ],
          },
          // No network: a saved code and the events seen last still let the staff choose.
          {
            guard: 'hasEvents',
            target: 'choosing',
            actions: assign(({ event }) => ({ error: errorOf(event).message })),
          },
          {
            target: 'locked',
            actions: assign(({ event }) => ({ code: null, error: errorOf(event).message })),
          },
        ],
      },
    },
    // The server locks an address out after wrong codes but always takes the right one
    // (others on the venue's Wi-Fi must not lock the staff out): typing on stays possible.
    lockedOut: {
      after: { lockout: { target: 'locked', actions: assign({ retryAfterSeconds: 0 }) } },
      on: {
        'door.unlock': [
          {
            guard: 'hasCode',
            target: 'unlocking',
            actions: assign({ code: ({ event }) => event.code.trim() }),
          },
          { actions: assign({ error: DOOR_CODE_EMPTY_MESSAGE }) },
        ],
      },
    },
    choosing: {
      on: {
        'event.choose': {
          target: 'loading',
          actions: assign({ eventId: ({ event }) => event.eventId, error: null }),
        },
        'events.reload': { target: 'unlocking' },
        'door.lock': {
          target: 'locked',
          actions: [assign({ code: null, eventId: null, events: [], error: null }), 'forgetCode'],
        },
      },
    },
    loading: {
      invoke: {
        id: 'downloadEvent',
        src: 'downloadEvent',
        input: ({ context }) => ({ code: context.code ?? '', eventId: context.eventId ?? 0 }),
        onDone: { target: 'open' },
        onError: [
          {
            guard: 'isCodeRejected',
            target: 'locked',
            actions: [
              assign(({ event }) => ({ code: null, eventId: null, error: errorOf(event).message })),
              'forgetCode',
            ],
          },
          {
            target: 'choosing',
            actions: assign(({ event }) => ({ eventId: null, error: errorOf(event).message })),
          },
        ],
      },
    },
    open: {
      invoke: {
        id: 'syncInBackground',
        src: 'syncInBackground',
        input: ({ context }) => ({ code: context.code ?? '', eventId: context.eventId ?? 0 }),
      },
      on: {
        'event.change': { target: 'choosing', actions: assign({ verdict: null, error: null }) },
        'door.codeRejected': {
          target: 'locked',
          actions: [
            assign({
              code: null,
              eventId: null,
              verdict: null,
              error: 'Der Türcode gilt nicht mehr. Bitte gib den aktuellen Code ein.',
            }),
            'forgetCode',
          ],
        },
        'door.lock': {
          target: 'locked',
          actions: [
            assign({ code: null, eventId: null, events: [], verdict: null, error: null }),
            'forgetCode',
          ],
        },
      },
      initial: 'scanning',
      states: {
        scanning: {
          on: {
            'scan.detected': {
              target: 'verifying',
              actions: assign({ scanned: ({ event }) => event.text, verdict: null }),
            },
          },
        },
        verifying: {
          invoke: {
            id: 'verifyScan',
            src: 'verifyScan',
            input: ({ context }) => ({
              text: context.scanned ?? '',
              eventId: context.eventId ?? 0,
              code: context.code ?? '',
            }),
            onDone: {
              target: 'verdict',
              actions: [
                assign({ verdict: ({ event }) => event.output }),
                emit(({ event }) => ({ type: 'door.verdict' as const, verdict: event.output })),
              ],
            },
            onError: {
              target: 'verdict',
              actions: [
                assign({ verdict: { kind: 'invalid', reason: 'unreadable' } as DoorVerdict }),
                emit({
                  type: 'door.verdict' as const,
                  verdict: { kind: 'invalid', reason: 'unreadable' },
                }),
              ],
            },
          },
        },
        verdict: {
          after: { verdict: { target: 'scanning', actions: assign({ verdict: null }) } },
          on: {
            // Scanning never stops: the next code replaces the verdict at once.
            'scan.detected': {
              target: 'verifying',
              actions: assign({ scanned: ({ event }) => event.text, verdict: null }),
            },
            'verdict.dismiss': { target: 'scanning', actions: assign({ verdict: null }) },
          },
        },
      },
    },
  },
});

export type DoorMachine = typeof doorMachine;
