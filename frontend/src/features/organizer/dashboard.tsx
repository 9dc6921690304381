import { useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { OrganizerEvent } from '@awhh/machines';
import { Button } from '@/components/ui/button';
import { ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { ApiRequestError, errorText } from '@/lib/api-client';
import { fetchOrganizerEvents } from './api';
import { DoorCodePanel } from './door-code-panel';
import { EventCard } from './event-card';
import { GuestList } from './guest-list';
import { HandoffsPanel } from './handoffs-panel';
import { NoticesPanel } from './notices-panel';
import styles from './organizer.module.css';

/**
 * Cards that follow their event live: today's and the next ones. Each stream is a
 * connection of its own, and a browser on HTTP/1.1 opens six per site at most.
 */
export const LIVE_CARDS = 3;

/** Past: the evening is over (the server then counts the no-shows). */
function isOver(event: OrganizerEvent): boolean {
  return event.noShows !== null;
}

export interface DashboardProps {
  name: string | null;
  signingOut: boolean;
  onSignOut: () => void;
  /** "Alle Sitzungen beenden": every organizer session, on every device (a lost phone). */
  onSignOutEverywhere: () => void;
  /** A request or stream was refused: the page asks whether the session still holds. */
  onSessionDoubt: () => void;
}

/** The event whose guest list is open (`?gaeste=<id>`, so the back button closes it). */
function guestListOf(params: URLSearchParams): number | null {
  const value = params.get('gaeste');
  return value && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

/**
 * rules "The organizer": every event of the shop as a card, the current ones live; or one
 * event's guest list.
 */
export function Dashboard({
  name,
  signingOut,
  onSignOut,
  onSignOutEverywhere,
  onSessionDoubt,
}: DashboardProps) {
  const [params] = useSearchParams();
  const guestsOf = guestListOf(params);
  const [events, setEvents] = useState<OrganizerEvent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [endingAll, setEndingAll] = useState(false);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    fetchOrganizerEvents(controller.signal).then(
      (answer) => {
        setEvents(answer.events);
        setError(null);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        if (failure instanceof ApiRequestError && failure.status === 401) onSessionDoubt();
        else setError(errorText(failure));
      },
    );
    return () => controller.abort();
  }, [attempt, onSessionDoubt]);

  const current = events?.filter((e) => !isOver(e)) ?? [];
  const past = events?.filter(isOver) ?? [];
  const live = new Set(current.slice(0, LIVE_CARDS).map((e) => e.id));

  return (
    <div className={styles.dashboard}>
      <div className={styles.toolbar}>
        <p className={styles.who}>
          {name ? (
            <>
              Angemeldet als <strong>{name}</strong>
            </>
          ) : (
            'Angemeldet mit dem Veranstaltercode'
          )}
        </p>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={reload}>
            Aktualisieren
          </Button>
          <Button variant="ghost" onClick={onSignOut} disabled={signingOut}>
            {signingOut ? 'Wird abgemeldet …' : 'Abmelden'}
          </Button>
          <Button
            variant="ghost"
            onClick={() => setEndingAll(true)}
            disabled={signingOut || endingAll}
          >
            Alle Sitzungen beenden
          </Button>
        </div>
      </div>

      {endingAll ? (
        <div className={styles.confirm} role="group" aria-label="Alle Sitzungen beenden bestätigen">
          <p>
            Alle Anmeldungen im Veranstalterbereich enden sofort, auf jedem Gerät und auch hier.
            Jetzt beenden?
          </p>
          <div className={styles.actions}>
            <Button onClick={onSignOutEverywhere} disabled={signingOut}>
              {signingOut ? 'Wird beendet …' : 'Ja, alle beenden'}
            </Button>
            <Button variant="ghost" onClick={() => setEndingAll(false)}>
              Abbrechen
            </Button>
          </div>
        </div>
      ) : null}

      <NoticesPanel />
      <HandoffsPanel />
      <DoorCodePanel />

      {guestsOf !== null ? (
        <>
          <p className={styles.back}>
            <Link to="?">← Alle Events</Link>
          </p>
          <GuestList
            eventId={guestsOf}
            eventName={events?.find((e) => e.id === guestsOf)?.name ?? ''}
            onSessionDoubt={onSessionDoubt}
          />
        </>
      ) : error ? (
        <ErrorState message={error} onRetry={reload} />
      ) : events === null ? (
        <Loading label="Die Zahlen werden geladen …">
          <div className={styles.cards}>
            {[0, 1].map((i) => (
              <div key={i} className={styles.card}>
                <Skeleton width="40%" height="0.9rem" />
                <Skeleton width="70%" height="1.6rem" style={{ marginTop: '0.75rem' }} />
                <Skeleton width="100%" height="5rem" style={{ marginTop: '1.25rem' }} />
              </div>
            ))}
          </div>
        </Loading>
      ) : events.length === 0 ? (
        <p className={styles.none}>Im Shop gibt es noch keine Events.</p>
      ) : (
        <>
          <section aria-labelledby="organizer-current">
            <h2 id="organizer-current" className={styles.sectionTitle}>
              Heute und demnächst
            </h2>
            {current.length === 0 ? (
              <p className={styles.none}>Gerade steht kein Event an.</p>
            ) : (
              <div className={styles.cards}>
                {current.map((event) => (
                  <EventCard
                    key={event.id}
                    event={event}
                    live={live.has(event.id)}
                    onStreamEnded={onSessionDoubt}
                  />
                ))}
              </div>
            )}
          </section>
          {past.length > 0 ? (
            // Closed at first: the evening's figures are the ones that change.
            <details className={styles.past}>
              <summary>
                <h2 className={styles.sectionTitle}>Vergangene Events ({past.length})</h2>
              </summary>
              <div className={styles.cards}>
                {past.map((event) => (
                  <EventCard
                    key={event.id}
                    event={event}
                    live={false}
                    onStreamEnded={onSessionDoubt}
                  />
                ))}
              </div>
            </details>
          ) : null}
        </>
      )}
    </div>
  );
}
