import { useEffect, useRef, useState } from 'react';
import { type OrganizerEvent, organizerEventSchema } from '@awhh/machines';
import { organizerApi } from './api';

/** `connecting` until the first message, `live` while messages arrive, `lost` while it waits to try again. */
export type LiveState = 'off' | 'connecting' | 'live' | 'lost';

/** After a refused stream (a deploy's 502, too many streams), the next try waits this long, doubling. */
const RETRY_MS = 5_000;
const MAX_RETRY_MS = 60_000;

/**
 * rules "The organizer": an event's figures as the server streams them (server-sent events:
 * the figures at once and whenever a sale, a check-in or the waiting list changes them). The
 * browser reconnects by itself after a dropped connection; a stream the server refused or
 * ended (`signed-out`) is opened again after a while, and `onStreamEnded` lets the page ask
 * whether the session still holds (if not, the page signs out and the card goes away).
 */
export function useLiveEvent(
  initial: OrganizerEvent,
  enabled: boolean,
  onStreamEnded: () => void,
): { event: OrganizerEvent; state: LiveState } {
  const [streamed, setStreamed] = useState<OrganizerEvent | null>(null);
  const [state, setState] = useState<LiveState>('connecting');
  const [attempt, setAttempt] = useState(0);
  /** Streams refused in a row: the wait before the next one grows with them. */
  const refused = useRef(0);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let retry: ReturnType<typeof setTimeout> | null = null;
    const source = new EventSource(organizerApi.live(initial.id));
    const ended = () => {
      source.close();
      setState('lost');
      onStreamEnded();
      const wait = Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** Math.min(refused.current, 4));
      refused.current += 1;
      retry = setTimeout(() => setAttempt((n) => n + 1), wait);
    };
    source.onmessage = (message) => {
      let data: unknown;
      try {
        data = JSON.parse(message.data as string);
      } catch {
        return;
      }
      const parsed = organizerEventSchema.safeParse(data);
      if (!parsed.success) return;
      setStreamed(parsed.data);
      setState('live');
      refused.current = 0;
    };
    source.addEventListener('signed-out', ended);
    source.onopen = () => setState((now) => (now === 'live' ? now : 'connecting'));
    source.onerror = () => {
      // CONNECTING: the browser tries again by itself. CLOSED: the server refused the stream.
      if (source.readyState === EventSource.CLOSED) ended();
      else setState('connecting');
    };
    return () => {
      source.close();
      if (retry) clearTimeout(retry);
    };
    // The stream belongs to the event and the attempt, not to each new list object or callback.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initial.id, enabled, attempt]);

  // Whichever was read later: the stream's figures, or a newer list ("Aktualisieren").
  const event =
    streamed && streamed.id === initial.id && streamed.updatedAt >= initial.updatedAt
      ? streamed
      : initial;
  return { event, state: enabled && typeof EventSource !== 'undefined' ? state : 'off' };
}
