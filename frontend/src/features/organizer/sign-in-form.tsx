import { type FormEvent, useId, useState } from 'react';
import {
  organizerAccountSignInSchema,
  organizerCodeSignInSchema,
  type OrganizerSignInMethod,
} from '@awhh/machines';
import { Button } from '@/components/ui/button';
import { controlClass, controlProps, Field } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { ApiRequestError, errorText } from '@/lib/api-client';
import { signInOrganizer } from './api';
import styles from './organizer.module.css';

type Errors = Partial<Record<'username' | 'applicationPassword' | 'code', string>>;

/** The first message per field, as the server words it (one schema for both sides). */
function fieldErrors(issues: readonly { path: PropertyKey[]; message: string }[]): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const field = String(issue.path[0]) as keyof Errors;
    errors[field] ??= issue.message;
  }
  return errors;
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} Sekunden`;
  return `${Math.ceil(seconds / 60)} Minuten`;
}

export interface SignInFormProps {
  method: OrganizerSignInMethod;
  onSignedIn: () => void;
}

/**
 * rules "The organizer": with WooCommerce a WordPress account (user name and an application
 * password; shop manager or administrator), on the demo shop the organizer code.
 */
export function SignInForm({ method, onSignedIn }: SignInFormProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { username: useId(), password: useId(), code: useId(), help: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed =
      method === 'wordpress'
        ? organizerAccountSignInSchema.safeParse({ username, applicationPassword: password })
        : organizerCodeSignInSchema.safeParse({ code });
    if (!parsed.success) {
      const found = fieldErrors(parsed.error.issues);
      setErrors(found);
      setFailure(null);
      const first =
        method === 'wordpress' ? (found.username ? ids.username : ids.password) : ids.code;
      document.getElementById(first)?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    setFailure(null);
    try {
      await signInOrganizer(parsed.data);
      setPassword('');
      setCode('');
      onSignedIn();
    } catch (error) {
      const seconds =
        error instanceof ApiRequestError && typeof error.body.retryAfterSeconds === 'number'
          ? error.body.retryAfterSeconds
          : null;
      setFailure(
        seconds ? `${errorText(error)} (noch etwa ${waitText(seconds)})` : errorText(error),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.signIn} aria-labelledby={`${ids.help}-title`}>
      <h2 id={`${ids.help}-title`} className={styles.signInTitle}>
        Anmelden
      </h2>
      <form onSubmit={submit} noValidate className={styles.signInForm}>
        {method === 'wordpress' ? (
          <>
            <p id={ids.help} className={styles.help}>
              Melde dich mit deinem WordPress-Konto des Shops an (Rolle Shop-Manager oder
              Administrator) und einem Anwendungspasswort, nicht mit deinem normalen Passwort. Ein
              Anwendungspasswort legst du hier an:{' '}
              <strong>WordPress → Benutzer → Profil → Anwendungspasswörter</strong>.
            </p>
            <Field id={ids.username} label="WordPress-Benutzername" error={errors.username}>
              <input
                {...controlProps(ids.username, errors.username)}
                className={controlClass}
                name="username"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </Field>
            <Field id={ids.password} label="Anwendungspasswort" error={errors.applicationPassword}>
              <input
                {...controlProps(ids.password, errors.applicationPassword)}
                className={controlClass}
                name="application-password"
                type="password"
                autoComplete="current-password"
                spellCheck={false}
                aria-describedby={
                  errors.applicationPassword ? `${ids.password}-error ${ids.help}` : ids.help
                }
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </Field>
          </>
        ) : (
          <>
            <p id={ids.help} className={styles.help}>
              Dieser Shop läuft ohne WooCommerce: Du meldest dich mit dem Veranstaltercode an. Den
              Code legt der Betrieb fest (<code>ORGANIZER_CODE</code>) oder liest ihn mit{' '}
              <code>npm run organizer-code</code> aus; im Testmodus steht er im Testpostfach.
            </p>
            <Field id={ids.code} label="Veranstaltercode" error={errors.code}>
              <input
                {...controlProps(ids.code, errors.code)}
                className={`${controlClass} ${styles.codeInput}`}
                name="organizer-code"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                aria-describedby={errors.code ? `${ids.code}-error ${ids.help}` : ids.help}
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </Field>
          </>
        )}
        {failure ? (
          <Alert tone="error" title="Anmeldung fehlgeschlagen">
            <p>{failure}</p>
          </Alert>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? 'Wird geprüft …' : 'Anmelden'}
        </Button>
      </form>
    </section>
  );
}
