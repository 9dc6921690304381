import { env } from '@/config/env';
import { usePageMeta } from '@/lib/page-meta';
import { Page } from '@/components/ui/page';
import { ContactForm } from '@/features/contact/contact-form';

export function Component() {
  usePageMeta({
    title: 'Kontakt',
    description: `Schreib ${env.productName}: Fragen zu Events, Tickets oder Kooperationen.`,
  });
  return (
    <Page
      title="Kontakt"
      eyebrow="Schreib uns"
      lead="Fragen zu einem Event, zu deinen Tickets oder eine Idee für eine Location? Wir antworten in der Regel innerhalb von zwei Werktagen."
    >
      <ContactForm />
    </Page>
  );
}
