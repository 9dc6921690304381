import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { staticMeta } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import { MailboxView } from '@/features/mailbox/mailbox-view';

export const handle = staticMeta(
  'Testpostfach',
  'Interne Testseite: die Mails des Testmodus mit ihren Anhängen.',
  { noindex: true },
);

/** rules "Tickets and the door" / "Test pages": the mails the embedded defaults kept. */
export function Component() {
  const [params, setParams] = useSearchParams();
  // The chosen mail is in the address, so a reload or a shared link shows the same one.
  const onSelect = useCallback(
    (id: string) => setParams({ mail: id }, { replace: true }),
    [setParams],
  );
  return (
    <Page
      title="Testpostfach"
      eyebrow="Interne Testseite"
      lead="Die Mails, die der Server im Testmodus verschickt hätte – mit Anhängen, so wie sie ankommen würden."
    >
      <MailboxView selectedId={params.get('mail')} onSelect={onSelect} />
    </Page>
  );
}
