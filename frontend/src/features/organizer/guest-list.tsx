import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  type Attendee,
  formatClock,
  formatEuro,
  formatNumericDate,
  MIN_SEARCH_CHARS,
} from '@awhh/machines';
import { Button } from '@/components/ui/button';
import { Alert, ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { controlClass } from '@/components/ui/field';
import { ApiRequestError, errorText } from '@/lib/api-client';
import {
  cancelAttendee,
  checkInAttendee,
  fetchAttendees,
  guestsApi,
  resendTicket,
  undoCheckIn,
} from './guests-api';
import { extrasApi } from './extras-api';
import { GuestNameForm } from './guest-name-form';
import styles from './guest-list.module.css';

/** Guests per page: a phone scrolls through them, "Weitere laden" brings the next. */
export const GUESTS_PAGE = 50;
/** The search waits this long after the last key before it asks. */
const SEARCH_DELAY_MS = 250;

export interface GuestListProps {
  eventId: number;
  eventName: string;
  /** A request was refused (401): the page asks whether the session still holds. */
  onSessionDoubt: () => void;
}

/** What the last answer said, for the search and reload it answered (`key`). */
type Listing = { key: string } & (
  | { kind: 'error'; message: string }
  | { kind: 'ready'; attendees: Attendee[]; total: number; more: boolean }
);

interface Notice {
  tone: 'success' | 'error';
  text: string;
}

function statusText(a: Attendee): string {
  if (a.status === 'revoked') return 'Storniert';
  if (a.status === 'valid' || !a.checkedInAt) return 'Gültig';
  const today = formatNumericDate(new Date().toISOString());
  const day = formatNumericDate(a.checkedInAt);
  const when = `${day === today ? '' : `am ${day} `}um ${formatClock(a.checkedInAt)} Uhr`;
  return `Eingecheckt ${when}${a.device ? ` · ${a.device}` : ''}`;
}

function guestLabel(a: Attendee): string {
  const name = a.name ?? 'Ohne Namen';
  return a.seats > 1 ? `${name}, Platz ${a.seat} von ${a.seats}` : name;
}

/**
 * rules "The organizer": an event's guest list. Search by name, company, e-mail address,
 * order number or ticket code; each guest with status, check-in by hand and its undo, the
 * ticket mail again, and cancelling with a refund after a confirmation; the CSV download.
 */
export function GuestList({ eventId, eventName, onSessionDoubt }: GuestListProps) {
  const searchId = useId();
  const [input, setInput] = useState('');
  const [query, setQuery] = useState('');
  const [listing, setListing] = useState<Listing | null>(null);
  const [attempt, setAttempt] = useState(0);
  const key = `${eventId}|${query}|${attempt}`;
  // Until the answer to this search comes, the last one stays on screen, marked busy.
  const loading = listing?.key !== key;
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [cancelling, setCancelling] = useState<Attendee | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(input.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [input]);

  const failed = useCallback(
    (error: unknown): string => {
      if (error instanceof ApiRequestError && error.status === 401) onSessionDoubt();
      return errorText(error);
    },
    [onSessionDoubt],
  );

  useEffect(() => {
    const controller = new AbortController();
    const asked = `${eventId}|${query}|${attempt}`;
    fetchAttendees(eventId, { q: query, offset: 0, limit: GUESTS_PAGE }, controller.signal).then(
      (page) =>
        setListing({
          key: asked,
          kind: 'ready',
          attendees: page.attendees,
          total: page.total,
          more: page.total > page.attendees.length,
        }),
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setListing({ key: asked, kind: 'error', message: failed(error) });
        }
      },
    );
    return () => controller.abort();
  }, [eventId, query, attempt, failed]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  const loadMore = () => {
    if (listing?.kind !== 'ready') return;
    const offset = listing.attendees.length;
    fetchAttendees(eventId, { q: query, offset, limit: GUESTS_PAGE }).then(
      (page) =>
        setListing((current) => {
          if (current?.kind !== 'ready') return current;
          const attendees = [...current.attendees, ...page.attendees];
          return { ...current, attendees, total: page.total, more: page.total > attendees.length };
        }),
      (error: unknown) => setNotice({ tone: 'error', text: failed(error) }),
    );
  };

  /** The row as the server answered it. */
  const replace = (attendee: Attendee) =>
    setListing((current) =>
      current?.kind === 'ready'
        ? {
            ...current,
            attendees: current.attendees.map((a) =>
              a.ticketId === attendee.ticketId ? attendee : a,
            ),
          }
        : current,
    );

  const act = async (a: Attendee, run: () => Promise<string>) => {
    setBusy(a.ticketId);
    setNotice(null);
    try {
      setNotice({ tone: 'success', text: await run() });
    } catch (error) {
      const body = error instanceof ApiRequestError ? error.body : null;
      const attendee = body && 'attendee' in body ? (body.attendee as Attendee) : null;
      if (attendee) replace(attendee);
      setNotice({ tone: 'error', text: failed(error) });
    } finally {
      setBusy(null);
    }
  };

  const checkIn = (a: Attendee) =>
    act(a, async () => {
      const { attendee } = await checkInAttendee(eventId, a.ticketId);
      replace(attendee);
      return `${guestLabel(a)} ist eingecheckt.`;
    });

  const undo = (a: Attendee) =>
    act(a, async () => {
      const { attendee } = await undoCheckIn(eventId, a.ticketId);
      replace(attendee);
      return `Check-in von ${guestLabel(a)} zurückgenommen.`;
    });

  const resend = (a: Attendee) =>
    act(a, async () => {
      const { attendee } = await resendTicket(eventId, a.ticketId);
      return `Das Ticket geht noch einmal an ${attendee.email ?? 'die Adresse der Bestellung'}.`;
    });

  const cancel = (a: Attendee, scope: 'ticket' | 'order') =>
    act(a, async () => {
      const answer = await cancelAttendee(eventId, a.ticketId, { scope });
      setCancelling(null);
      reload();
      const tickets = answer.revoked.length === 1 ? '1 Ticket' : `${answer.revoked.length} Tickets`;
      return `${tickets} storniert, ${formatEuro(answer.refunded)} werden erstattet.`;
    });

  /** rules "Named tickets": the new name on the card, and the focus back on its button. */
  const renamed = (a: Attendee, holder: { name: string; company: string | null }) => {
    replace({ ...a, ...holder });
    setRenaming(null);
    setNotice({
      tone: 'success',
      text: `Gespeichert: Das Ticket ist jetzt auf ${holder.name} ausgestellt.`,
    });
  };

  const searching = query.replace(/[\s#@]/g, '').length > 0;

  return (
    <section className={styles.guests} aria-labelledby={`${searchId}-title`}>
      <div className={styles.head}>
        <h2 id={`${searchId}-title`} className={styles.title}>
          Gästeliste <span className={styles.eventName}>{eventName}</span>
        </h2>
        <p className={styles.downloads}>
          <a className={styles.csv} href={guestsApi.csv(eventId)} download>
            CSV herunterladen
          </a>
          <a className={styles.csv} href={extrasApi.badges(eventId, 'a4')} download>
            Namensschilder (PDF)
          </a>
        </p>
      </div>

      <form className={styles.search} role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={searchId}>Gast suchen</label>
        <input
          id={searchId}
          type="search"
          className={controlClass}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder="Name, Firma, E-Mail, Bestellnummer oder Ticket-Code"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
        />
      </form>

      <div aria-live="polite" className={styles.notice}>
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      </div>

      {listing === null ? (
        <Loading label="Die Gästeliste wird geladen …">
          <ul className={styles.list}>
            {[0, 1, 2].map((i) => (
              <li key={i} className={styles.guest}>
                <Skeleton width="55%" height="1.1rem" />
                <Skeleton width="80%" height="0.9rem" style={{ marginTop: '0.5rem' }} />
              </li>
            ))}
          </ul>
        </Loading>
      ) : listing.kind === 'error' ? (
        <ErrorState message={listing.message} onRetry={reload} />
      ) : (
        <div aria-busy={loading} className={styles.results}>
          <p className={styles.count}>
            {searching
              ? listing.total === 0
                ? query.length < MIN_SEARCH_CHARS
                  ? 'Bitte gib mindestens zwei Zeichen ein.'
                  : `Niemand gefunden für „${query}“.`
                : `${listing.total} ${listing.total === 1 ? 'Ticket' : 'Tickets'} gefunden`
              : `${listing.total} ${listing.total === 1 ? 'Ticket' : 'Tickets'}`}
          </p>
          {listing.attendees.length > 0 ? (
            <ul className={styles.list}>
              {listing.attendees.map((a) => (
                <GuestRow
                  key={a.ticketId}
                  attendee={a}
                  busy={busy === a.ticketId}
                  disabled={busy !== null}
                  onCheckIn={() => void checkIn(a)}
                  onUndo={() => void undo(a)}
                  onResend={() => void resend(a)}
                  onCancel={() => setCancelling(a)}
                  renaming={renaming === a.ticketId}
                  onRename={() => {
                    setNotice(null);
                    setRenaming(a.ticketId);
                  }}
                  rename={
                    renaming === a.ticketId ? (
                      <GuestNameForm
                        attendee={a}
                        onSaved={(holder) => renamed(a, holder)}
                        onClose={() => setRenaming(null)}
                        onSessionDoubt={onSessionDoubt}
                      />
                    ) : null
                  }
                />
              ))}
            </ul>
          ) : null}
          {listing.more ? (
            <Button variant="secondary" onClick={loadMore}>
              Weitere laden ({listing.total - listing.attendees.length})
            </Button>
          ) : null}
        </div>
      )}

      {cancelling ? (
        <CancelDialog
          attendee={cancelling}
          busy={busy === cancelling.ticketId}
          error={notice?.tone === 'error' ? notice.text : null}
          onConfirm={(scope) => void cancel(cancelling, scope)}
          onClose={() => setCancelling(null)}
        />
      ) : null}
    </section>
  );
}

interface GuestRowProps {
  attendee: Attendee;
  busy: boolean;
  disabled: boolean;
  onCheckIn: () => void;
  onUndo: () => void;
  onResend: () => void;
  onCancel: () => void;
  /** Its "Name ändern" form is open (`rename`). */
  renaming: boolean;
  onRename: () => void;
  rename: ReactNode;
}

function GuestRow({
  attendee: a,
  busy,
  disabled,
  onCheckIn,
  onUndo,
  onResend,
  onCancel,
  renaming,
  onRename,
  rename,
}: GuestRowProps) {
  const who = <span className="visually-hidden"> – {guestLabel(a)}</span>;
  const cancellable = a.status !== 'revoked' && a.orderId !== null && !a.guestList;
  const card = useRef<HTMLLIElement>(null);
  const wasRenaming = useRef(renaming);
  // The form closed (saved or not): the focus goes back where it came from.
  useEffect(() => {
    if (wasRenaming.current && !renaming)
      card.current?.querySelector<HTMLElement>('[data-rename]')?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);
  return (
    <li ref={card} className={styles.guest} data-ticket-id={a.ticketId} data-status={a.status}>
      <div className={styles.who}>
        <p className={styles.name}>
          {a.name ?? <span className={styles.nameless}>Ohne Namen</span>}
          {a.company ? <span className={styles.company}>{a.company}</span> : null}
        </p>
        <p className={styles.meta}>
          {a.tier ?? 'Ticket'}
          {a.seats > 1 ? ` · Platz ${a.seat} von ${a.seats}` : ''}
          {a.code ? (
            <>
              {' · '}
              <span className={styles.code}>{a.code}</span>
            </>
          ) : null}
          {a.guestList ? ' · Gästeliste' : ''}
        </p>
        <p className={styles.meta}>
          {a.email ?? 'ohne E-Mail'}
          {a.orderNumber ? ` · Bestellung ${a.orderNumber}` : ''}
        </p>
      </div>
      <p className={styles.status} data-status={a.status}>
        {statusText(a)}
      </p>
      {renaming ? (
        rename
      ) : a.status === 'revoked' ? (
        <p className={styles.meta}>
          Der Name lässt sich nicht mehr ändern: Das Ticket ist storniert.
        </p>
      ) : (
        <div className={styles.actions}>
          {a.status === 'valid' ? (
            <Button onClick={onCheckIn} disabled={disabled}>
              {busy ? 'Wird eingecheckt …' : 'Einchecken'}
              {who}
            </Button>
          ) : a.status === 'checkedIn' ? (
            <Button variant="secondary" onClick={onUndo} disabled={disabled}>
              {busy ? 'Wird zurückgenommen …' : 'Check-in zurücknehmen'}
              {who}
            </Button>
          ) : null}
          {a.email ? (
            <Button variant="ghost" onClick={onResend} disabled={disabled}>
              Ticket erneut senden{who}
            </Button>
          ) : null}
          {cancellable ? (
            <Button
              variant="ghost"
              className={styles.danger}
              onClick={onCancel}
              disabled={disabled}
            >
              Stornieren …{who}
            </Button>
          ) : null}
          <Button data-rename="" variant="ghost" onClick={onRename} disabled={disabled}>
            Name ändern{who}
          </Button>
        </div>
      )}
    </li>
  );
}

interface CancelDialogProps {
  attendee: Attendee;
  busy: boolean;
  /** Why the last try failed (the page's notice sits behind the modal dialog). */
  error: string | null;
  onConfirm: (scope: 'ticket' | 'order') => void;
  onClose: () => void;
}

/**
 * The confirmation before money goes back: a modal dialog (focus inside it, Escape closes
 * it) that asks for one ticket or the whole order.
 */
function CancelDialog({ attendee: a, busy, error, onConfirm, onClose }: CancelDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [scope, setScope] = useState<'ticket' | 'order'>('ticket');

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm(scope);
        }}
      >
        <h3 id={titleId} className={styles.dialogTitle}>
          {guestLabel(a)} stornieren?
        </h3>
        <fieldset className={styles.choices}>
          <legend>Was soll storniert werden?</legend>
          <label>
            <input
              type="radio"
              name="scope"
              value="ticket"
              checked={scope === 'ticket'}
              onChange={() => setScope('ticket')}
            />
            Nur dieses Ticket – sein Preis wird erstattet
          </label>
          <label>
            <input
              type="radio"
              name="scope"
              value="order"
              checked={scope === 'order'}
              onChange={() => setScope('order')}
            />
            Die ganze Bestellung{a.orderNumber ? ` ${a.orderNumber}` : ''} – alle ihre Tickets, der
            ganze Betrag wird erstattet
          </label>
        </fieldset>
        <p className={styles.dialogNote}>
          Das Geld geht über den Zahlungsanbieter zurück, das Ticket gilt danach nicht mehr, und der
          Platz geht an die Warteliste. Das lässt sich nicht rückgängig machen.
        </p>
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className={styles.dialogActions}>
          <Button type="submit" disabled={busy}>
            {busy ? 'Wird storniert …' : 'Stornieren und erstatten'}
          </Button>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Abbrechen
          </Button>
        </div>
      </form>
    </dialog>
  );
}
