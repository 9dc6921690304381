import { useEffect } from 'react';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { paths } from '@/config/paths';
import { useIsBot } from '@/lib/bot';
import { applyDocumentMeta, type PageMeta } from '@/lib/page-head';
import { Button, ButtonLink } from '@/components/ui/button';
import styles from './error-page.module.css';

export interface ErrorPageProps {
  status: 404 | 500;
  title?: string;
  message?: string;
}

/** rules §2/§8: 404 "Page Not Found" with "Page not found: {path}"; else "Internal Server Error". */
export function errorPageMeta(status: number, pathname: string): PageMeta {
  return status === 404
    ? { title: 'Page Not Found', description: `Page not found: ${pathname}`, noindex: true }
    : {
        title: 'Internal Server Error',
        description: 'Beim Laden der Seite ist ein Fehler aufgetreten.',
        noindex: true,
      };
}

export function ErrorPage({ status, title, message }: ErrorPageProps) {
  const { pathname } = useLocation();
  const standard = errorPageMeta(status, pathname);
  const heading = title ?? standard.title;
  const text = message ?? standard.description;
  // The server wrote the same head (frontend/src/server/head.ts); this follows navigations.
  useEffect(
    () => applyDocumentMeta({ title: heading, description: text, noindex: true }),
    [heading, text],
  );
  // rules §2: crawlers get no error page, so nothing of it ends up in an index.
  const bot = useIsBot();
  if (bot) return null;
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
