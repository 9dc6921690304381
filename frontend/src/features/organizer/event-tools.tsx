import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  formatDateTime,
  ORGANIZER_MAIL_SUBJECT_MAX,
  ORGANIZER_MAIL_TEXT_MAX,
  type OrganizerEvent,
  type OrganizerMail,
  type OrganizerMailPreview,
} from '@awhh/machines';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { controlClass, controlProps, Field } from '@/components/ui/field';
import { errorText } from '@/lib/api-client';
import { fetchBadges, fetchMails, previewMail, sendMail, testMail } from './extras-api';
import styles from './event-tools.module.css';

type Notice = { tone: 'error' | 'success' | 'info'; text: string } | null;

/** A fresh id for one sending: a repeated click or retry sends the mail once. */
function newSendId(): string {
  return crypto.randomUUID();
}

/** The badge PDF saved as a file, without leaving the page. */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** rules "The organizer": the event's name badges, A4 sheets or label-printer pages. */
function Badges({ event }: { event: OrganizerEvent }) {
  const [busy, setBusy] = useState<'a4' | 'label' | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const download = async (layout: 'a4' | 'label') => {
    setBusy(layout);
    setNotice(null);
    try {
      const blob = await fetchBadges(event.id, layout);
      saveFile(blob, `namensschilder-${event.id}-${layout === 'label' ? 'etiketten' : 'a4'}.pdf`);
    } catch (failure) {
      setNotice({ tone: 'error', text: errorText(failure) });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className={styles.badges}>
      <h4 className={styles.toolTitle}>Namensschilder</h4>
      <p className={styles.hint}>
        Alle gültigen Tickets, nach Nachnamen sortiert: A4 mit 8 Schildern (90 × 55 mm) und
        Schnittmarken, oder ein Schild pro Seite für Etikettendrucker.
      </p>
      <div className={styles.row}>
        <Button variant="secondary" onClick={() => download('a4')} disabled={busy !== null}>
          {busy === 'a4' ? 'Wird erstellt …' : 'Namensschilder (A4)'}
          <span className="visually-hidden"> für {event.name}</span>
        </Button>
        <Button variant="ghost" onClick={() => download('label')} disabled={busy !== null}>
          {busy === 'label' ? 'Wird erstellt …' : 'Etiketten (90 × 55 mm)'}
          <span className="visually-hidden"> für {event.name}</span>
        </Button>
      </div>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
    </div>
  );
}

/** rules "The organizer": a mail to every valid holder, previewed and tested first. */
function MailComposer({ event }: { event: OrganizerEvent }) {
  const id = useId();
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<OrganizerMailPreview | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<'preview' | 'test' | 'send' | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [mails, setMails] = useState<OrganizerMail[] | null>(null);
  const sendId = useRef(newSendId());

  const loadMails = useCallback(
    (signal?: AbortSignal) =>
      fetchMails(event.id, signal).then(
        (answer) => setMails(answer.mails),
        () => undefined,
      ),
    [event.id],
  );
  useEffect(() => {
    const controller = new AbortController();
    void loadMails(controller.signal);
    return () => controller.abort();
  }, [loadMails]);
  // While a mail is still going out, its count follows.
  const going = mails?.some((m) => m.sent < m.recipients) ?? false;
  useEffect(() => {
    if (!going) return;
    const timer = setInterval(() => void loadMails(), 3_000);
    return () => clearInterval(timer);
  }, [going, loadMails]);

  const draft = { subject, text };
  const edit = (change: () => void) => {
    change();
    setPreview(null);
    setConfirming(false);
  };
  const run = async (kind: 'preview' | 'test' | 'send', work: () => Promise<void>) => {
    setBusy(kind);
    setNotice(null);
    try {
      await work();
    } catch (failure) {
      setNotice({ tone: 'error', text: errorText(failure) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className={styles.mail}>
      <h4 className={styles.toolTitle}>Nachricht an alle Gäste</h4>
      <p className={styles.hint}>
        Geht an jede Adresse mit einem gültigen Ticket, einmal pro Adresse – etwa wenn sich der Ort
        ändert. Erst die Vorschau ansehen, dann senden.
      </p>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          void run('preview', async () => setPreview(await previewMail(event.id, draft)));
        }}
      >
        <Field id={`${id}-subject`} label="Betreff">
          <input
            {...controlProps(`${id}-subject`, undefined)}
            className={controlClass}
            value={subject}
            maxLength={ORGANIZER_MAIL_SUBJECT_MAX}
            onChange={(e) => edit(() => setSubject(e.target.value))}
            required
          />
        </Field>
        <Field id={`${id}-text`} label="Nachricht">
          <textarea
            {...controlProps(`${id}-text`, undefined)}
            className={`${controlClass} ${styles.text}`}
            value={text}
            rows={6}
            maxLength={ORGANIZER_MAIL_TEXT_MAX}
            onChange={(e) => edit(() => setText(e.target.value))}
            required
          />
        </Field>
        <div className={styles.row}>
          <Button type="submit" variant="secondary" disabled={busy !== null}>
            {busy === 'preview' ? 'Vorschau wird erstellt …' : 'Vorschau'}
          </Button>
          <Button
            variant="ghost"
            disabled={busy !== null}
            onClick={() =>
              void run('test', async () => {
                const { to } = await testMail(event.id, draft);
                setNotice({ tone: 'success', text: `Testmail an ${to} ist unterwegs.` });
              })
            }
          >
            {busy === 'test' ? 'Wird gesendet …' : 'An mich testen'}
          </Button>
        </div>
      </form>

      {preview ? (
        <div className={styles.preview}>
          <p className={styles.hint}>
            Vorschau – so kommt die Nachricht an. Empfänger: <strong>{preview.recipients}</strong>{' '}
            {preview.recipients === 1 ? 'Adresse' : 'Adressen'}
          </p>
          <iframe
            title={`Vorschau: ${preview.subject}`}
            className={styles.frame}
            sandbox=""
            srcDoc={preview.html}
          />
          {confirming ? (
            <div className={styles.confirm} role="group" aria-label="Senden bestätigen">
              <p>
                Wirklich an {preview.recipients} {preview.recipients === 1 ? 'Adresse' : 'Adressen'}{' '}
                senden? Das lässt sich nicht zurückholen.
              </p>
              <div className={styles.row}>
                <Button
                  disabled={busy !== null}
                  onClick={() =>
                    void run('send', async () => {
                      const { mail } = await sendMail(event.id, draft, sendId.current);
                      sendId.current = newSendId();
                      setSubject('');
                      setText('');
                      setPreview(null);
                      setConfirming(false);
                      setNotice({
                        tone: 'success',
                        text: `„${mail.subject}“ geht an ${mail.recipients} ${mail.recipients === 1 ? 'Adresse' : 'Adressen'}.`,
                      });
                      await loadMails();
                    })
                  }
                >
                  {busy === 'send' ? 'Wird gesendet …' : 'Ja, jetzt senden'}
                </Button>
                <Button variant="ghost" onClick={() => setConfirming(false)}>
                  Abbrechen
                </Button>
              </div>
            </div>
          ) : (
            <Button
              disabled={busy !== null || preview.recipients === 0}
              onClick={() => setConfirming(true)}
            >
              An alle senden
            </Button>
          )}
        </div>
      ) : null}

      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}

      {mails && mails.length > 0 ? (
        <div className={styles.sent}>
          <h5 className={styles.sentTitle}>Gesendet</h5>
          <ul className={styles.sentList}>
            {mails.map((m) => (
              <li key={m.id}>
                <strong>{m.subject}</strong>
                <span className={styles.hint}>
                  {formatDateTime(m.createdAt)} · {m.sent} von {m.recipients} gesendet
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** rules "The organizer": what the organizer does for the evening beyond the figures. */
export function EventTools({ event }: { event: OrganizerEvent }) {
  return (
    <details className={styles.tools}>
      <summary>
        Namensschilder und Nachricht an alle
        <span className="visually-hidden"> für {event.name}</span>
      </summary>
      <div className={styles.toolsBody}>
        <Badges event={event} />
        <MailComposer event={event} />
      </div>
    </details>
  );
}
