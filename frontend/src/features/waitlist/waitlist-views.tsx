import { Link, type ActionFunctionArgs } from 'react-router';
import {
  formatDateTime,
  formatEuro,
  type WaitlistConfirmation,
  type WaitlistOfferView,
} from '@awhh/machines';
import { paths } from '@/config/paths';
import { apiAction, useApiForm } from '@/lib/form-action';
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

/** The offer page's action (`/waitlist/offer/:token`): the offer declined, as it is now. */
export const declineOfferAction = ({ params }: ActionFunctionArgs) =>
  apiAction(() => declineOffer(params.token ?? ''));

export interface OfferViewProps {
  offer: WaitlistOfferView;
  /** Fills the cart with the offered places and opens the checkout (wired by the route). */
  onAccept: (offer: WaitlistOfferView) => void;
}

/**
 * The offer: what is held, until when, and the way to buy it or pass it on. Declining
 * posts to the route's action (`declineOfferAction`).
 */
export function OfferView({ offer: initial, onAccept }: OfferViewProps) {
  const { status, submit } = useApiForm<WaitlistOfferView>();
  const offer = status.state === 'done' ? status.data : initial;
  const busy = status.state === 'submitting';
  const error = status.state === 'error' ? status.message : null;
  const deadline = formatDateTime(offer.expiresAt);

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
            <Button variant="secondary" block disabled={busy} onClick={() => void submit()}>
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

/** The unsubscribe page's action (`/waitlist/unsubscribe/:token`). */
export const unsubscribeAction = ({ params }: ActionFunctionArgs) =>
  apiAction(() => unsubscribe(params.token ?? ''));

/**
 * The visitor confirms with a button, so a mail scanner opening the link removes nobody.
 * The button posts to the route's action (`unsubscribeAction`).
 */
export function UnsubscribeForm() {
  const { status, submit } = useApiForm<{ removed: boolean }>();

  if (status.state === 'done') return <UnsubscribedView removed={status.data.removed} />;
  return (
    <div className={styles.card}>
      <p>
        Möchtest du von der Warteliste? Dann löschen wir deinen Eintrag samt E-Mail-Adresse; für
        dich reservierte Plätze gehen an die nächste Person.
      </p>
      {status.state === 'error' ? (
        <Alert tone="error" title="Das hat nicht geklappt">
          <p>{status.message}</p>
        </Alert>
      ) : null}
      <div>
        <Button disabled={status.state === 'submitting'} onClick={() => void submit()}>
          {status.state === 'submitting' ? 'Wird abgemeldet …' : 'Von der Warteliste abmelden'}
        </Button>
      </div>
    </div>
  );
}
