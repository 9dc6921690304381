import { useEffect } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { verdictText } from '@awhh/machines';
import { getInspect } from '@/lib/inspect';
import { Loading } from '@/components/ui/feedback';
import { createDoorMachine } from './door-actors';
import { EventPicker } from './event-picker';
import { signalVerdict, unlockAudio } from './feedback';
import { LockScreen } from './lock-screen';
import { cacheLoadedAssets } from './offline';
import { ScanScreen } from './scan-screen';
import { VerdictOverlay } from './verdict-overlay';
import styles from './door.module.css';

const liveDoorMachine = createDoorMachine();

/** The door check-in page (rules "Tickets and the door"), one screen per door state. */
export function DoorApp() {
  const actor = useActorRef(liveDoorMachine, { inspect: getInspect() });
  const mode = useSelector(actor, (s) =>
    s.matches('restoring')
      ? 'restoring'
      : s.matches('open')
        ? 'open'
        : s.matches('choosing') ||
            s.matches('loading') ||
            // Reloading the list keeps the list on screen.
            (s.matches('unlocking') && s.context.events.length > 0)
          ? 'choosing'
          : 'locked',
  );
  const busy = useSelector(actor, (s) => s.matches('unlocking'));
  const lockedOutFor = useSelector(actor, (s) =>
    s.matches('lockedOut') ? s.context.retryAfterSeconds : 0,
  );
  const error = useSelector(actor, (s) => s.context.error);
  const events = useSelector(actor, (s) => s.context.events);
  const loadingId = useSelector(actor, (s) => (s.matches('loading') ? s.context.eventId : null));
  const verdict = useSelector(actor, (s) => s.context.verdict);

  useEffect(() => {
    const subscription = actor.on('door.verdict', ({ verdict: v }) =>
      signalVerdict(verdictText(v).tone),
    );
    return () => subscription.unsubscribe();
  }, [actor]);

  useEffect(() => {
    // The chunks loaded on the way into scanning (reader, verifier) go into the worker's cache.
    if (mode === 'open') void cacheLoadedAssets();
  }, [mode]);

  const onCode = (text: string) => {
    unlockAudio();
    actor.send({ type: 'scan.detected', text });
  };
  const onLock = () => actor.send({ type: 'door.lock' });
  const announced = verdict ? verdictText(verdict) : null;

  return (
    <div className={styles.door}>
      {/* One live region for every verdict, so a screen reader hears each scan. */}
      <p className="visually-hidden" role="status" aria-live="assertive">
        {announced ? `${announced.title}. ${announced.detail}` : ''}
      </p>
      {mode === 'restoring' ? (
        <Loading label="Einlass wird vorbereitet">
          <p className={styles.hint}>Einlass wird vorbereitet …</p>
        </Loading>
      ) : mode === 'locked' ? (
        <LockScreen
          busy={busy}
          error={error}
          lockedOutFor={lockedOutFor}
          onUnlock={(code) => {
            unlockAudio();
            actor.send({ type: 'door.unlock', code });
          }}
        />
      ) : mode === 'choosing' ? (
        <EventPicker
          events={events}
          error={error}
          loadingId={loadingId}
          onChoose={(eventId) => {
            unlockAudio();
            actor.send({ type: 'event.choose', eventId });
          }}
          onReload={() => actor.send({ type: 'events.reload' })}
          onLock={onLock}
        />
      ) : (
        <ScanScreen
          onCode={onCode}
          onChangeEvent={() => actor.send({ type: 'event.change' })}
          onLock={onLock}
        />
      )}
      {mode === 'open' && verdict ? (
        <VerdictOverlay
          verdict={verdict}
          onDismiss={() => actor.send({ type: 'verdict.dismiss' })}
        />
      ) : null}
    </div>
  );
}
