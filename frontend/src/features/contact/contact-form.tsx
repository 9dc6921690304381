import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { contactRequestSchema, type ContactRequest } from '@awhh/machines';
import { paths } from '@/config/paths';
import { apiPost } from '@/lib/api-client';
import { jsonAction, useApiForm } from '@/lib/form-action';
import { useHydrated } from '@/lib/use-hydrated';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import {
  ConsentField,
  controlClass,
  controlProps,
  Field,
  touchOnBlur,
} from '@/components/ui/field';
import styles from './contact.module.css';

export const CONTACT_URL = '/api/contact';

type FieldName = 'name' | 'email' | 'message' | 'consent';
type Errors = Partial<Record<FieldName, string>>;

const EMPTY: ContactRequest = {
  name: '',
  email: '',
  message: '',
  consent: false as unknown as true,
  website: '',
};

/** The shared schema decides, so browser and server say the same thing (rules "/contact"). */
function validate(values: ContactRequest): Errors {
  const result = contactRequestSchema.safeParse(values);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as FieldName | undefined;
    if (field && field in EMPTY && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** The contact route's action: the message to the API (rules "/contact"). */
export const contactAction = jsonAction((message: ContactRequest) =>
  apiPost<unknown>(CONTACT_URL, message),
);

/** rules "/contact"; the route that shows it exports `contactAction` as its action. */
export function ContactForm() {
  const hydrated = useHydrated();
  const ids = { name: useId(), email: useId(), message: useId(), consent: useId() };
  const [values, setValues] = useState<ContactRequest>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const { status, submit: send, reset } = useApiForm<unknown>();
  const formRef = useRef<HTMLFormElement>(null);
  const errors = validate(values);
  const shown = (field: FieldName) => (touched[field] ? errors[field] : undefined);

  const set = <K extends keyof ContactRequest>(key: K, value: ContactRequest[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const blur = (field: FieldName) =>
    touchOnBlur(() => setTouched((t) => ({ ...t, [field]: true })));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ name: true, email: true, message: true, consent: true });
    const first = (['name', 'email', 'message', 'consent'] as const).find((f) => errors[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(ids[first])}`)?.focus();
      return;
    }
    void send(values);
  }

  if (status.state === 'done') {
    return (
      <Alert tone="success" title="Danke für deine Nachricht!">
        <p>Wir haben sie erhalten und melden uns so bald wie möglich bei dir.</p>
        <Button
          variant="secondary"
          onClick={() => {
            setValues(EMPTY);
            setTouched({});
            reset();
          }}
        >
          Weitere Nachricht schreiben
        </Button>
      </Alert>
    );
  }

  return (
    <form ref={formRef} className={styles.form} noValidate onSubmit={submit}>
      {status.state === 'error' ? (
        <Alert tone="error" title="Nachricht nicht gesendet">
          <p>{status.message}</p>
        </Alert>
      ) : null}
      <Field id={ids.name} label="Name" error={shown('name')}>
        <input
          {...controlProps(ids.name, shown('name'))}
          className={controlClass}
          name="name"
          autoComplete="name"
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          onBlur={blur('name')}
          required
        />
      </Field>
      <Field id={ids.email} label="E-Mail" error={shown('email')}>
        <input
          {...controlProps(ids.email, shown('email'))}
          className={controlClass}
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => set('email', e.target.value)}
          onBlur={blur('email')}
          required
        />
      </Field>
      <Field id={ids.message} label="Nachricht" error={shown('message')}>
        <textarea
          {...controlProps(ids.message, shown('message'))}
          className={controlClass}
          name="message"
          value={values.message}
          onChange={(e) => set('message', e.target.value)}
          onBlur={blur('message')}
          required
        />
      </Field>
      <div className={styles.trap} aria-hidden="true">
        <label htmlFor="contact-website">Website</label>
        <input
          id="contact-website"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={values.website ?? ''}
          onChange={(e) => set('website', e.target.value)}
        />
      </div>
      <ConsentField
        id={ids.consent}
        checked={values.consent === true}
        onChange={(checked) => {
          set('consent', checked as true);
          setTouched((t) => ({ ...t, consent: true }));
        }}
        error={shown('consent')}
      >
        Ich bin einverstanden, dass meine Angaben zur Beantwortung meiner Anfrage gespeichert
        werden. Details in der <Link to={paths.datenschutz}>Datenschutzerklärung</Link>.
      </ConsentField>
      <div>
        {/* Enabled once hydrated: before, the browser would send the form as a plain GET. */}
        <Button type="submit" disabled={!hydrated || status.state === 'submitting'}>
          {status.state === 'submitting' ? 'Wird gesendet …' : 'Nachricht senden'}
        </Button>
      </div>
    </form>
  );
}
