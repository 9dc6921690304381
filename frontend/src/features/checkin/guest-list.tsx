import { useDeferredValue, useId, useMemo, useState } from 'react';
import { checkinPlace, MAX_SEARCH_HITS } from '@awhh/machines';
import { doorStore, type GuestHit } from './door-store';
import styles from './door.module.css';

export interface GuestListProps {
  /** The list's current state (a check-in changes a hit's status); from useDoorSnapshot. */
  version: unknown;
  /** One tap checks the ticket in by the same rules as a scan: its short code goes the same way. */
  onCheckIn: (code: string) => void;
}

function seatText({ ticket }: GuestHit): string {
  return [ticket.tier, ticket.seats > 1 ? `Ticket ${ticket.seat} von ${ticket.seats}` : null]
    .filter(Boolean)
    .join(' · ');
}

function statusOf(hit: GuestHit): { text: string; tone: 'open' | 'in' | 'revoked' } {
  if (hit.ticket.status === 'revoked') return { text: 'Storniert', tone: 'revoked' };
  if (hit.checkin) {
    return {
      text: `Eingecheckt ${checkinPlace(hit.checkin.at, hit.checkin.device)}`.trim(),
      tone: 'in',
    };
  }
  return { text: 'Noch nicht eingecheckt', tone: 'open' };
}

/**
 * The guest list at the door (rules "Tickets and the door"): for a guest whose code will
 * not scan, found by name, e-mail address or order number in the list on the device,
 * offline too. A tap answers with the same verdict a scan would.
 */
export function GuestList({ version, onCheckIn }: GuestListProps) {
  const [query, setQuery] = useState('');
  const id = useId();
  // Typing stays responsive on a slow phone; the list follows a frame later.
  const deferred = useDeferredValue(query);
  const hits = useMemo(
    () => doorStore.searchGuests(deferred),
    // The snapshot's identity changes with every check-in and list refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [deferred, version],
  );
  const summary =
    hits === null
      ? deferred.trim() === ''
        ? ''
        : 'Bitte mindestens zwei Buchstaben oder Ziffern eingeben.'
      : hits.length === 0
        ? 'Niemand gefunden.'
        : hits.length >= MAX_SEARCH_HITS
          ? `Die ersten ${MAX_SEARCH_HITS} Treffer – bitte genauer suchen.`
          : hits.length === 1
            ? '1 Treffer'
            : `${hits.length} Treffer`;

  return (
    <section className={styles.guests} aria-label="Gästeliste">
      <form className={styles.manual} role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={id} className={styles.label}>
          Gästeliste durchsuchen
        </label>
        <p className={styles.hint} id={`${id}-hint`}>
          Name (ab zwei Buchstaben), E-Mail-Adresse oder Bestellnummer. Funktioniert auch offline.
        </p>
        <input
          id={id}
          type="search"
          className={styles.textInput}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
          autoCapitalize="words"
          spellCheck={false}
          enterKeyHint="search"
          aria-describedby={`${id}-hint ${id}-summary`}
          // Only while the hits are there: a reference to nothing is an ARIA error.
          aria-controls={hits && hits.length > 0 ? `${id}-hits` : undefined}
        />
      </form>
      <p id={`${id}-summary`} className={styles.hint} role="status" aria-live="polite">
        {summary}
      </p>
      {hits && hits.length > 0 ? (
        <ul id={`${id}-hits`} className={styles.hits} aria-label="Treffer">
          {hits.map((hit) => {
            const status = statusOf(hit);
            const name =
              hit.ticket.holder ??
              (hit.ticket.buyer ? `Ohne Namen · gekauft von ${hit.ticket.buyer}` : 'Ohne Namen');
            return (
              <li key={hit.ticket.id} className={styles.hit} data-ticket={hit.ticket.id}>
                <div className={styles.hitText}>
                  <span className={styles.hitName}>{name}</span>
                  <span className={styles.hitMeta}>{seatText(hit) || 'Eintritt'}</span>
                  <span className={styles[`hit_${status.tone}`]}>{status.text}</span>
                </div>
                {hit.ticket.code ? (
                  <button
                    type="button"
                    className={status.tone === 'open' ? styles.hitPrimary : styles.hitSecondary}
                    aria-label={`${name}, ${seatText(hit) || 'Eintritt'}: ${status.tone === 'open' ? 'einchecken' : 'prüfen'}`}
                    onClick={() => {
                      setQuery('');
                      onCheckIn(hit.ticket.code!);
                    }}
                  >
                    {status.tone === 'open' ? 'Einchecken' : 'Prüfen'}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
