import { createActor, fromCallback, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  doorMachine,
  type DoorContext,
  type DoorEvent,
  type DoorRestored,
  DOOR_CODE_EMPTY_MESSAGE,
  isDoorSession,
  VERDICT_MS,
} from './door.machine.js';
import type { DoorEventSummary, DoorFailure, DoorUnlocked, DoorVerdict } from './door.types.js';

type AnyEvent = { type: string; [key: string]: unknown };
type Verify = { text: string; eventId: number; code: string };

const EVENT: DoorEventSummary = {
  id: 42,
  name: 'Sommer-Afterwork',
  startsAt: '2026-06-05T17:00:00Z',
  venue: 'MS Hamburg',
  tickets: 180,
};
const VALID: DoorVerdict = {
  kind: 'valid',
  ticket: { id: 'tkt_1', seat: 1, seats: 1, tier: 'VIP', holder: 'Karla', status: 'valid' },
};
const failure = (status: number, message: string, retryAfterSeconds?: number) => ({
  status,
  message,
  ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
});

/**
 * The alphabet: what the staff do, and every answer the injected actors can give
 * (sent as the done/error events the invocations would produce).
 */
const EVENTS: AnyEvent[] = [
  {
    type: 'xstate.done.actor.restoreDoor',
    output: { code: null, eventId: null, events: [], hasList: false },
  },
  {
    type: 'xstate.done.actor.restoreDoor',
    output: { code: '4711', eventId: null, events: [EVENT], hasList: false },
  },
  {
    type: 'xstate.done.actor.restoreDoor',
    output: { code: '4711', eventId: 42, events: [EVENT], hasList: true },
  },
  { type: 'door.unlock', code: '  ' },
  { type: 'door.unlock', code: '4711' },
  { type: 'xstate.done.actor.listEvents', output: { events: [EVENT], code: 'door.sitzung' } },
  { type: 'xstate.error.actor.listEvents', error: failure(401, 'Der Türcode stimmt nicht.') },
  { type: 'xstate.error.actor.listEvents', error: failure(429, 'Zu viele Versuche.', 300) },
  { type: 'xstate.error.actor.listEvents', error: failure(0, 'Keine Verbindung.') },
  { type: 'event.choose', eventId: 42 },
  { type: 'events.reload' },
  { type: 'xstate.done.actor.downloadEvent' },
  { type: 'xstate.error.actor.downloadEvent', error: failure(401, 'Der Türcode stimmt nicht.') },
  { type: 'xstate.error.actor.downloadEvent', error: failure(0, 'Keine Verbindung.') },
  { type: 'scan.detected', text: 'abc.def.ghi' },
  { type: 'xstate.done.actor.verifyScan', output: VALID },
  { type: 'verdict.dismiss' },
  { type: 'xstate.after.verdict.door.open.verdict' },
  { type: 'xstate.after.lockout.door.lockedOut' },
  { type: 'event.change' },
  { type: 'door.codeRejected' },
  { type: 'door.lock' },
];

const pending = () => new Promise<never>(() => {});

/** The machine with actors that never answer: the test sends their answers itself. */
function quietMachine(forgotten: { count: number }) {
  return doorMachine.provide({
    actors: {
      restoreDoor: fromPromise<DoorRestored>(pending),
      listEvents: fromPromise<DoorUnlocked, { code: string }>(pending),
      downloadEvent: fromPromise<void, { code: string; eventId: number }>(pending),
      verifyScan: fromPromise<DoorVerdict, Verify>(pending),
      syncInBackground: fromCallback(() => () => {}),
    },
    actions: { forgetCode: () => void (forgotten.count += 1) },
  });
}

function leaf(value: unknown): string {
  return typeof value === 'string'
    ? value
    : Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k}.${leaf(v)}`)
        .join();
}

/** What must hold in every state the staff can see. */
function checkInvariants(state: string, context: DoorContext) {
  if (state.startsWith('open')) {
    expect(context.code).not.toBeNull();
    expect(context.eventId).not.toBeNull();
  }
  if (['locked', 'lockedOut', 'restoring'].includes(state) && state !== 'restoring') {
    expect(context.code).toBeNull();
  }
  if (['unlocking', 'choosing', 'loading'].includes(state)) expect(context.code).not.toBeNull();
  if (state === 'loading') expect(context.eventId).not.toBeNull();
  expect(context.verdict !== null).toBe(state === 'open.verdict');
  if (state === 'lockedOut') expect(context.retryAfterSeconds).toBeGreaterThan(0);
}

describe('door machine, model-based (rules "Tickets and the door")', () => {
  // getShortestPaths rather than createTestModel: the test model refuses machines with
  // invocations and delays, and the door's I/O is exactly that (answered by EVENTS here).
  const paths = getShortestPaths(quietMachine({ count: 0 }), {
    // The alphabet holds the invocations' done/error events too, beyond DoorEvent.
    events: EVENTS as unknown as DoorEvent[],
    serializeState: (s) => JSON.stringify([s.value, s.context]),
  });

  it('reaches every mode of the door', () => {
    const modes = new Set(paths.map((p) => leaf(p.state.value)));
    expect(modes).toEqual(
      new Set([
        'restoring',
        'locked',
        'unlocking',
        'lockedOut',
        'choosing',
        'loading',
        'open.scanning',
        'open.verifying',
        'open.verdict',
      ]),
    );
  });

  it('replays every path on a real actor with the invariants after each step', () => {
    for (const path of paths) {
      const forgotten = { count: 0 };
      const actor = createActor(quietMachine(forgotten)).start();
      for (const step of path.steps) {
        const before = actor.getSnapshot();
        actor.send(step.event);
        const snapshot = actor.getSnapshot();
        expect(snapshot.value).toEqual(step.state.value);
        checkInvariants(leaf(snapshot.value), snapshot.context);
        // A code that the server refused or the staff locked is gone from the device too;
        // no network is no verdict on the code, so a saved one stays for the next try.
        const offline = (step.event as { error?: { status: number } }).error?.status === 0;
        if (before.context.code !== null && snapshot.context.code === null && !offline) {
          expect(forgotten.count).toBeGreaterThan(0);
        }
      }
      actor.stop();
    }
  });
});

describe('door machine, with its actors', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const flush = async () => {
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };

  /** A fresh device: nothing saved from an earlier visit. */
  const nothingSaved = () =>
    fromPromise<DoorRestored>(async () => ({
      code: null,
      eventId: null,
      events: [],
      hasList: false,
    }));

  type DoorAnswer = DoorUnlocked | DoorFailure;
  /** The door API's answers to the unlock requests, in turn: a failure is thrown. */
  const answering = (answers: DoorAnswer[]) =>
    fromPromise<DoorUnlocked, { code: string }>(async () => {
      const answer = answers.shift()!;
      if ('status' in answer) throw answer;
      return answer;
    });

  it('empty code → message; wrong code → refused; too many → locked out until Retry-After', async () => {
    const answers: DoorAnswer[] = [
      failure(401, 'Der Türcode stimmt nicht.'),
      failure(429, 'Zu viele Versuche. Bitte warte 5 Minuten.', 300),
    ];
    const actor = createActor(
      doorMachine.provide({
        actors: {
          restoreDoor: nothingSaved(),
          listEvents: answering(answers),
        },
      }),
    ).start();
    await flush();
    actor.send({ type: 'door.unlock', code: '' });
    expect(actor.getSnapshot().context.error).toBe(DOOR_CODE_EMPTY_MESSAGE);
    actor.send({ type: 'door.unlock', code: '0000' });
    await flush();
    expect(actor.getSnapshot().value).toBe('locked');
    expect(actor.getSnapshot().context.error).toBe('Der Türcode stimmt nicht.');
    actor.send({ type: 'door.unlock', code: '0001' });
    await flush();
    expect(actor.getSnapshot().value).toBe('lockedOut');
    jest.advanceTimersByTime(300_000);
    expect(actor.getSnapshot().value).toBe('locked');
    actor.stop();
  });

  it('locked out, the staff can still type the right code: the server always takes it', async () => {
    const answers: DoorAnswer[] = [
      failure(429, 'Zu viele falsche Türcodes aus diesem Netz.', 900),
      { events: [], code: 'door-session' },
    ];
    const actor = createActor(
      doorMachine.provide({
        actors: {
          restoreDoor: nothingSaved(),
          listEvents: answering(answers),
        },
      }),
    ).start();
    await flush();
    actor.send({ type: 'door.unlock', code: 'FALSCH' });
    await flush();
    expect(actor.getSnapshot().value).toBe('lockedOut');
    actor.send({ type: 'door.unlock', code: 'Jbxu-Vz5g-Nw27-Y5uq' });
    await flush();
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().context.code).toBe('door-session');
    actor.stop();
  });

  it('the typed code is traded for the door session, which the device keeps and sends from then on', async () => {
    const sent: string[] = [];
    const actor = createActor(
      doorMachine.provide({
        actors: {
          restoreDoor: nothingSaved(),
          listEvents: fromPromise<DoorUnlocked, { code: string }>(async ({ input }) => {
            sent.push(input.code);
            return { events: [EVENT], code: 'door.sitzung' };
          }),
          downloadEvent: fromPromise<void, { code: string; eventId: number }>(async ({ input }) => {
            sent.push(input.code);
          }),
        },
      }),
    ).start();
    await flush();
    actor.send({ type: 'door.unlock', code: ' K7QM-3XPA-R9TB-2HNP ' });
    await flush();
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().context.code).toBe('door.sitzung');
    actor.send({ type: 'event.choose', eventId: 42 });
    await flush();
    expect(sent).toEqual(['K7QM-3XPA-R9TB-2HNP', 'door.sitzung']);
    expect(isDoorSession('door.sitzung')).toBe(true);
    expect(isDoorSession('K7QM-3XPA-R9TB-2HNP')).toBe(false);
    actor.stop();
  });

  it('saved code and list → straight to scanning (offline reload); a verdict, then scanning again', async () => {
    const verdicts: DoorVerdict[] = [];
    const actor = createActor(
      doorMachine.provide({
        actors: {
          restoreDoor: fromPromise<DoorRestored>(async () => ({
            code: '4711',
            eventId: 42,
            events: [EVENT],
            hasList: true,
          })),
          verifyScan: fromPromise<DoorVerdict, Verify>(async () => VALID),
        },
      }),
    ).start();
    actor.on('door.verdict', (e) => verdicts.push(e.verdict));
    await flush();
    expect(actor.getSnapshot().value).toEqual({ open: 'scanning' });
    actor.send({ type: 'scan.detected', text: 'abc.def.ghi' });
    await flush();
    expect(actor.getSnapshot().value).toEqual({ open: 'verdict' });
    expect(verdicts).toEqual([VALID]);
    jest.advanceTimersByTime(VERDICT_MS);
    expect(actor.getSnapshot().value).toEqual({ open: 'scanning' });
    actor.stop();
  });
});
