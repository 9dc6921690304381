import { useCallback, useEffect, useRef, useState } from 'react';
import { formatShortDate, formatTime, type MailMessage, type MailSummary } from '@awhh/machines';
import { errorText, isNotFound } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Alert, ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { fetchMail, fetchMails, mailboxApi } from './api';
import { DoorCodeNote } from './door-code-note';
import { OrganizerCodeNote } from './organizer-code-note';
import styles from './mailbox.module.css';

/** New mails of a purchase show up without a reload (the outbox sends within seconds). */
export const MAIL_POLL_MS = 4000;

export const UNAVAILABLE_TEXT = 'Das Testpostfach gibt es nur im Testmodus.';

type ListState =
  | { kind: 'loading' }
  | { kind: 'ready'; mails: MailSummary[]; stale: boolean }
  | { kind: 'unavailable' }
  | { kind: 'error'; message: string };

type MessageState =
  | { kind: 'idle' }
  | { kind: 'loading'; id: string }
  | { kind: 'ready'; mail: MailMessage }
  | { kind: 'error'; id: string; message: string };

export function formatWhen(iso: string): string {
  const date = formatShortDate(iso);
  return date ? `${date}, ${formatTime(iso)}` : iso;
}

const kilo = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${kilo.format(size / 1024)} KB`;
  return `${kilo.format(size / (1024 * 1024))} MB`;
}

function attachmentCount(n: number): string {
  return n === 1 ? '1 Anhang' : `${n} Anhänge`;
}

/**
 * The mail's HTML runs in a sandbox without scripts and without our origin (no cookies,
 * no storage, no DOM access). Its links open in a new tab instead of inside the frame.
 */
export function mailDocument(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head)
    return (
      html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length)
    );
  return `<!doctype html><html><head><meta charset="utf-8">${base}</head><body>${html}</body></html>`;
}

function MessageView({ mail }: { mail: MailMessage }) {
  return (
    <>
      <dl className={styles.headers}>
        <div>
          <dt>Von</dt>
          <dd>{mail.from}</dd>
        </div>
        <div>
          <dt>An</dt>
          <dd>{mail.to}</dd>
        </div>
        <div>
          <dt>Zeit</dt>
          <dd>{formatWhen(mail.createdAt)}</dd>
        </div>
      </dl>
      {mail.attachments.length > 0 ? (
        <section aria-labelledby="mail-attachments" className={styles.attachments}>
          <h3 id="mail-attachments">Anhänge</h3>
          <ul>
            {mail.attachments.map((file, index) => (
              <li key={`${file.filename}-${index}`}>
                <a href={mailboxApi.attachment(mail.id, index)} download={file.filename}>
                  {file.filename}
                </a>
                <span className={styles.meta}>
                  {file.contentType.split(';')[0]} · {formatBytes(file.size)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {mail.html.trim() !== '' ? (
        <iframe
          className={styles.frame}
          title={`Inhalt der Mail „${mail.subject}“`}
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
          srcDoc={mailDocument(mail.html)}
        />
      ) : null}
      <details className={styles.text} open={mail.html.trim() === ''}>
        <summary>Textfassung</summary>
        <pre>{mail.text}</pre>
      </details>
    </>
  );
}

export interface MailboxViewProps {
  /** The mail shown; null shows the newest. */
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/** rules "Tickets and the door": the embedded mailbox, only while payments and mail are embedded. */
export function MailboxView({ selectedId, onSelect }: MailboxViewProps) {
  const [list, setList] = useState<ListState>({ kind: 'loading' });
  const [message, setMessage] = useState<MessageState>({ kind: 'idle' });
  const [refreshing, setRefreshing] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const messageHeading = useRef<HTMLHeadingElement>(null);
  const cache = useRef(new Map<string, MailMessage>());

  // `manual`: only the button shows progress; the quiet poll does not flicker it.
  const load = useCallback(async (signal?: AbortSignal, manual = false) => {
    if (manual) setRefreshing(true);
    try {
      const mails = await fetchMails(signal);
      setList({ kind: 'ready', mails, stale: false });
    } catch (error) {
      if (signal?.aborted) return;
      if (isNotFound(error)) setList({ kind: 'unavailable' });
      else
        setList((current) =>
          current.kind === 'ready'
            ? { ...current, stale: true }
            : { kind: 'error', message: errorText(error) },
        );
    } finally {
      if (manual) setRefreshing(false);
    }
  }, []);

  const available = list.kind === 'loading' || list.kind === 'ready';
  useEffect(() => {
    if (!available) return;
    const controller = new AbortController();
    void load(controller.signal);
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void load(controller.signal);
    }, MAIL_POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [available, attempt, load]);

  const mails = list.kind === 'ready' ? list.mails : [];
  const shownId = selectedId ?? mails[0]?.id ?? null;

  useEffect(() => {
    if (!shownId) return;
    const cached = cache.current.get(shownId);
    if (cached) {
      setMessage({ kind: 'ready', mail: cached });
      return;
    }
    const controller = new AbortController();
    setMessage({ kind: 'loading', id: shownId });
    fetchMail(shownId, controller.signal).then(
      (mail) => {
        // A stored mail never changes: fetched once per visit.
        cache.current.set(mail.id, mail);
        setMessage({ kind: 'ready', mail });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setMessage({ kind: 'error', id: shownId, message: errorText(error) });
      },
    );
    return () => controller.abort();
  }, [shownId, attempt]);

  if (list.kind === 'unavailable') {
    return (
      <Alert tone="info" title={UNAVAILABLE_TEXT}>
        <p>
          Sobald echte Zahlungen oder ein SMTP-Server eingerichtet sind, gehen Mails an die
          Empfänger und werden hier nicht gesammelt.
        </p>
      </Alert>
    );
  }
  if (list.kind === 'error') {
    return (
      <ErrorState
        message={list.message}
        onRetry={() => {
          setList({ kind: 'loading' });
          setAttempt((n) => n + 1);
        }}
      />
    );
  }

  const toolbar = (
    <>
      <DoorCodeNote />
      <OrganizerCodeNote />
      <div className={styles.toolbar}>
        <p className={styles.meta} aria-live="polite">
          {list.kind === 'ready'
            ? list.stale
              ? 'Aktualisieren fehlgeschlagen – es wird weiter versucht.'
              : `${mails.length === 1 ? '1 Mail' : `${mails.length} Mails`} · aktualisiert sich alle ${MAIL_POLL_MS / 1000} Sekunden`
            : 'Wird geladen …'}
        </p>
        <Button
          variant="secondary"
          onClick={() => void load(undefined, true)}
          disabled={refreshing}
        >
          {refreshing ? 'Wird aktualisiert …' : 'Aktualisieren'}
        </Button>
      </div>
    </>
  );

  if (list.kind === 'loading') {
    return (
      <>
        {toolbar}
        <Loading label="Mails werden geladen">
          <Skeleton height="4rem" width="100%" style={{ marginBottom: '0.5rem' }} />
          <Skeleton height="4rem" width="100%" />
        </Loading>
      </>
    );
  }

  return (
    <>
      {toolbar}
      {mails.length === 0 ? (
        <div className={styles.empty}>
          <h2>Noch keine Mails</h2>
          <p>
            Kauf im Testmodus ein Ticket: die Bestätigung mit PDF-Tickets und Kalendereintrag
            erscheint hier nach wenigen Sekunden.
          </p>
        </div>
      ) : (
        <div className={styles.layout}>
          <nav aria-label="Mails" className={styles.listWrap}>
            <ul className={styles.list}>
              {mails.map((mail) => (
                <li key={mail.id}>
                  <button
                    type="button"
                    className={styles.item}
                    aria-current={mail.id === shownId ? 'true' : undefined}
                    onClick={() => {
                      onSelect(mail.id);
                      // On a phone the message is below the list: take the reader there.
                      requestAnimationFrame(() => messageHeading.current?.focus());
                    }}
                  >
                    <span className={styles.subject}>{mail.subject}</span>
                    <span className={styles.meta}>An {mail.to}</span>
                    <span className={styles.meta}>
                      <time dateTime={mail.createdAt}>{formatWhen(mail.createdAt)}</time>
                      {mail.attachments.length > 0
                        ? ` · ${attachmentCount(mail.attachments.length)}`
                        : ''}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <article className={styles.message} aria-labelledby="mail-subject">
            <h2
              id="mail-subject"
              ref={messageHeading}
              tabIndex={-1}
              className={styles.messageTitle}
            >
              {message.kind === 'ready' ? message.mail.subject : 'Mail'}
            </h2>
            {message.kind === 'ready' ? (
              <MessageView mail={message.mail} />
            ) : message.kind === 'error' ? (
              <ErrorState message={message.message} onRetry={() => setAttempt((n) => n + 1)} />
            ) : (
              <Loading label="Mail wird geladen">
                <Skeleton height="1rem" width="70%" style={{ marginBottom: '0.5rem' }} />
                <Skeleton height="20rem" width="100%" />
              </Loading>
            )}
          </article>
        </div>
      )}
    </>
  );
}
