import { formatLongDate, formatTime, isToday, type DoorEventSummary } from '@awhh/machines';
import { Alert } from '@/components/ui/feedback';
import styles from './door.module.css';

export interface EventPickerProps {
  events: DoorEventSummary[];
  error: string | null;
  loadingId: number | null;
  onChoose: (eventId: number) => void;
  onReload: () => void;
  onLock: () => void;
}

function when(event: DoorEventSummary, now: Date): string {
  if (!event.startsAt) return 'ohne Datum';
  const time = formatTime(event.startsAt);
  return isToday(event.startsAt, now)
    ? `Heute, ${time}`
    : `${formatLongDate(event.startsAt)}, ${time}`;
}

/** The events the door can check in for, today's first (rules "Tickets and the door"). */
export function EventPicker({
  events,
  error,
  loadingId,
  onChoose,
  onReload,
  onLock,
}: EventPickerProps) {
  const now = new Date();
  return (
    <section className={styles.panel} aria-labelledby="door-title" aria-busy={loadingId !== null}>
      <p className={styles.eyebrow}>Einlass</p>
      <h1 id="door-title" className={styles.title}>
        Event wählen
      </h1>
      {error ? (
        <Alert tone="error">
          <p>{error}</p>
        </Alert>
      ) : null}
      {events.length === 0 ? (
        <p className={styles.hint}>Keine Events mit Tickets gefunden.</p>
      ) : (
        <ul className={styles.events}>
          {events.map((event) => (
            <li key={event.id}>
              <button
                type="button"
                className={styles.eventButton}
                onClick={() => onChoose(event.id)}
                disabled={loadingId !== null}
                aria-describedby={`door-event-${event.id}`}
              >
                <span className={styles.eventName}>{event.name}</span>
                <span id={`door-event-${event.id}`} className={styles.eventMeta}>
                  {when(event, now)}
                  {event.venue ? ` · ${event.venue}` : ''} ·{' '}
                  {event.tickets === 1 ? '1 Ticket' : `${event.tickets} Tickets`}
                </span>
                {loadingId === event.id ? (
                  <span className={styles.eventLoading} role="status">
                    Ticketliste wird geladen …
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.secondary}
          onClick={onReload}
          disabled={loadingId !== null}
        >
          Liste neu laden
        </button>
        <button type="button" className={styles.ghost} onClick={onLock}>
          Einlass sperren
        </button>
      </div>
    </section>
  );
}
