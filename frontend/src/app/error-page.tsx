import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { paths } from '@/config/paths';
import { isBotVisitor } from '@/lib/bot';
import { usePageMeta } from '@/lib/page-meta';
import { Button, ButtonLink } from '@/components/ui/button';
import styles from './error-page.module.css';

export interface ErrorPageProps {
  status: 404 | 500;
  title?: string;
  message?: string;
}

/** SPEC §2/§8: 404 "Page Not Found" with "Page not found: {path}"; else "Internal Server Error". */
export function ErrorPage({ status, title, message }: ErrorPageProps) {
  const { pathname } = useLocation();
  const heading = title ?? (status === 404 ? 'Page Not Found' : 'Internal Server Error');
  const text =
    message ??
    (status === 404
      ? `Page not found: ${pathname}`
      : 'Beim Laden der Seite ist ein Fehler aufgetreten.');
  usePageMeta({ title: heading, description: text, noindex: true });
  // SPEC §2: crawlers get no error page, so nothing of it ends up in an index.
  if (isBotVisitor()) return null;
  return (
    <section className={`container ${styles.wrap}`} aria-labelledby="error-title">
      <span className={styles.code} aria-hidden="true">
        {status}
      </span>
      <h1 id="error-title">{heading}</h1>
      <p className={styles.message}>{text}</p>
      <p>
        {status === 404
          ? 'Die Seite gibt es nicht (mehr). Vielleicht findest du, was du suchst, auf der Startseite.'
          : 'Bitte lade die Seite neu oder versuche es später noch einmal.'}
      </p>
      <div className={styles.actions}>
        <ButtonLink to={paths.home}>Zur Startseite</ButtonLink>
        {status === 500 ? (
          <Button variant="secondary" onClick={() => window.location.reload()}>
            Seite neu laden
          </Button>
        ) : null}
      </div>
    </section>
  );
}

/** The error boundary of the page routes: inside the shell, so header and footer stay. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <ErrorPage status={404} />;
  return <ErrorPage status={500} />;
}
