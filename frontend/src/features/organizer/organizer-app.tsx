import { useCallback, useEffect, useState } from 'react';
import type { OrganizerSession } from '@awhh/machines';
import { ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { errorText } from '@/lib/api-client';
import { fetchOrganizerSession, signOutOrganizer } from './api';
import { Dashboard } from './dashboard';
import { SignInForm } from './sign-in-form';

type View =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; session: OrganizerSession };

/**
 * rules "The organizer": /veranstalter. The server says whether this browser is signed in
 * (its cookie is HttpOnly, so the page cannot tell) and how one signs in; then either the
 * sign-in form or the dashboard.
 */
export function OrganizerApp() {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [signingOut, setSigningOut] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);

  const check = useCallback(() => {
    fetchOrganizerSession().then(
      (session) => setView({ kind: 'ready', session }),
      (error: unknown) => setView({ kind: 'error', message: errorText(error) }),
    );
  }, []);

  useEffect(check, [check]);

  const signOut = useCallback(
    (everywhere = false) => {
      setSigningOut(true);
      setSignOutError(null);
      signOutOrganizer(everywhere).then(
        () => {
          setSigningOut(false);
          check();
        },
        (error: unknown) => {
          setSigningOut(false);
          setSignOutError(errorText(error));
        },
      );
    },
    [check],
  );

  if (view.kind === 'loading') {
    return (
      <Loading label="Anmeldung wird geprüft …">
        <Skeleton width="18rem" height="2.9rem" />
      </Loading>
    );
  }
  if (view.kind === 'error') {
    return <ErrorState message={view.message} onRetry={check} />;
  }
  if (!view.session.signedIn) {
    return <SignInForm method={view.session.method} onSignedIn={check} />;
  }
  return (
    <>
      {signOutError ? <ErrorState message={signOutError} /> : null}
      <Dashboard
        name={view.session.name}
        signingOut={signingOut}
        onSignOut={() => signOut(false)}
        onSignOutEverywhere={() => signOut(true)}
        onSessionDoubt={check}
      />
    </>
  );
}
