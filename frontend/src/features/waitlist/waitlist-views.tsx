import { useState } from 'react';
import { Link } from 'react-router';
import {
  formatDateTime,
  formatEuro,
  type WaitlistConfirmation,
  type WaitlistOfferView,
} from '@awhh/machines';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { declineOffer, unsubscribe } from './api';
import { waitlistPaths } from './paths';
import styles from './waitlist.module.css';

// rules "Waiting list": the pages the mails link to, in German, each state said plainly.

function places(quantity: number): string {
  return quantity === 1 ? '1 Platz' : `${quantity} Plätze`;
}

function EventLink({ slug }: { slug: string | null }) {
  return slug ? (
    <Link to={paths.event(slug)}>Zur Eventseite</Link>
  ) : (
    <Link to={paths.home}>Zu allen Events</Link>
  );
}

export function ConfirmedView({ entry }: { entry: WaitlistConfirmation }) {
  return (
    <div className={styles.card}>
      <Alert tone="success" title="Du stehst auf der Warteliste">
        <p>
          Danke, deine E-Mail-Adresse ist bestätigt: {places(entry.quantity)} für „{entry.lineName}
          “.
        </p>
      </Alert>
      {entry.status === 'offered' ? (
        <p>
          Für dich sind bereits Plätze reserviert – den Link dazu haben wir dir per E-Mail
          geschickt.
        </p>
      ) : (
        <p>
          {entry.ahead === 0
            ? 'Du bist als Nächste*r dran.'
            : `Vor dir warten noch ${entry.ahead === 1 ? '1 Person' : `${entry.ahead} Personen`}.`}{' '}
          Sobald Plätze frei werden, reservieren wir sie für dich und schicken dir eine E-Mail mit
          einem Link zum Kaufen. Die Reservierung gilt dann eine begrenzte Zeit.
        </p>
      )}
      <p className={styles.small}>
        Du kannst dich jederzeit über den Link in unseren E-Mails abmelden.{' '}
        <EventLink slug={entry.eventSlug} />
      </p>
    </div>
  );
}

export function ConfirmNotFound({ message }: { message: string }) {
  return (
    <div className={styles.card}>
      <Alert tone="error" title="Link ungültig">
        <p>{message}</p>
      </Alert>
      <p>
        Trag dich einfach erneut auf der Eventseite ein.{' '}
        <Link to={paths.home}>Zu allen Events</Link>
      </p>
    </div>
  );
}

export interface OfferViewProps {
  offer: WaitlistOfferView;
  token: string;
  /** Fills the cart with the offered places and opens the checkout (wired by the route). */
  onAccept: (offer: WaitlistOfferView) => void;
}

/** The offer: what is held, until when, and the way to buy it or pass it on. */
export function OfferView({ offer: initial, token, onAccept }: OfferViewProps) {
  const [offer, setOffer] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const deadline = formatDateTime(offer.expiresAt);

  async function decline() {
    setBusy(true);
    setError(null);
    try {
      setOffer(await declineOffer(token));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  const facts = (
    <dl className={styles.facts}>
      <div>
        <dt>Event</dt>
        <dd>{offer.lineName}</dd>
      </div>
      <div>
        <dt>Reserviert</dt>
        <dd>
          {offer.quantity === 1 ? '1 Ticket' : `${offer.quantity} Tickets`}
          {offer.price !== null ? ` à ${formatEuro(offer.price)}` : ''}
        </dd>
      </div>
    </dl>
  );

  switch (offer.status) {
    case 'active':
      return (
        <div className={styles.card}>
          {facts}
          <p className={styles.deadline}>Gültig bis {deadline}</p>
          <p>
            Diese Plätze halten wir nur für dich. Leg sie in den Warenkorb und bezahl wie gewohnt –
            danach geht die Reservierung an die nächste Person auf der Warteliste.
          </p>
          {error ? (
            <Alert tone="error" title="Das hat nicht geklappt">
              <p>{error}</p>
            </Alert>
          ) : null}
          <div className={styles.actions}>
            <Button block disabled={busy || offer.price === null} onClick={() => onAccept(offer)}>
              In den Warenkorb und zur Kasse
            </Button>
            <Button variant="secondary" block disabled={busy} onClick={() => void decline()}>
              Angebot ablehnen
            </Button>
          </div>
          <p className={styles.small}>
            Keine Lust mehr auf Warteliste?{' '}
            <Link to={waitlistPaths.unsubscribe(offer.unsubscribeToken)}>Abmelden</Link>
          </p>
        </div>
      );
    case 'used':
      return (
        <div className={styles.card}>
          {facts}
          <Alert tone="info" title="Angebot bereits eingelöst">
            <p>
              Du hast diese Plätze schon in eine Bestellung übernommen. Deine Tickets kommen per
              E-Mail, sobald die Zahlung abgeschlossen ist.
            </p>
          </Alert>
          <p className={styles.small}>
            Zahlung abgebrochen? Dann gilt das Angebot wieder bis {deadline} – lade diese Seite neu.
          </p>
        </div>
      );
    case 'declined':
      return (
        <div className={styles.card}>
          {facts}
          <Alert tone="info" title="Angebot abgelehnt">
            <p>
              Danke für die Rückmeldung! Die Plätze gehen an die nächste Person auf der Warteliste.
            </p>
          </Alert>
          <EventLink slug={offer.eventSlug} />
        </div>
      );
    default:
      return (
        <div className={styles.card}>
          {facts}
          <Alert tone="error" title="Angebot abgelaufen">
            <p>
              Die Reservierung galt bis {deadline}. Die Plätze sind inzwischen an die nächste Person
              auf der Warteliste gegangen.
            </p>
          </Alert>
          <EventLink slug={offer.eventSlug} />
        </div>
      );
  }
}

export function OfferNotFound() {
  return (
    <div className={styles.card}>
      <Alert tone="error" title="Angebot nicht gefunden">
        <p>
          Dieses Angebot kennen wir nicht (mehr). Vielleicht hast du dich abgemeldet oder das Event
          ist vorbei.
        </p>
      </Alert>
      <Link to={paths.home}>Zu allen Events</Link>
    </div>
  );
}

export function UnsubscribedView({ removed }: { removed: boolean }) {
  return (
    <div className={styles.card}>
      <Alert tone="success" title={removed ? 'Abgemeldet' : 'Nicht (mehr) auf der Warteliste'}>
        <p>
          {removed
            ? 'Du stehst nicht mehr auf der Warteliste. Wir haben deinen Eintrag und deine E-Mail-Adresse gelöscht und schreiben dir dazu nichts mehr.'
            : 'Zu diesem Link gibt es keinen Eintrag auf der Warteliste (mehr). Wir schreiben dir dazu nichts mehr.'}
        </p>
      </Alert>
      <Link to={paths.home}>Zu allen Events</Link>
    </div>
  );
}

/**
 * The visitor confirms with a button, so a mail scanner opening the link removes nobody.
 */
export function UnsubscribeForm({ token }: { token: string }) {
  const [state, setState] = useState<'idle' | 'busy' | { removed: boolean }>('idle');
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    setState('busy');
    setError(null);
    try {
      setState(await unsubscribe(token));
    } catch (e) {
      setError(errorText(e));
      setState('idle');
    }
  }

  if (typeof state === 'object') return <UnsubscribedView removed={state.removed} />;
  return (
    <div className={styles.card}>
      <p>
        Möchtest du von der Warteliste? Dann löschen wir deinen Eintrag samt E-Mail-Adresse; für
        dich reservierte Plätze gehen an die nächste Person.
      </p>
      {error ? (
        <Alert tone="error" title="Das hat nicht geklappt">
          <p>{error}</p>
        </Alert>
      ) : null}
      <div>
        <Button disabled={state === 'busy'} onClick={() => void submit()}>
          {state === 'busy' ? 'Wird abgemeldet …' : 'Von der Warteliste abmelden'}
        </Button>
      </div>
    </div>
  );
}
