import { staticMeta } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import { ContactForm } from '@/features/contact/contact-form';

export { contactAction as action } from '@/features/contact/contact-form';

export const handle = staticMeta(
  'Kontakt',
  'Schreib uns: Fragen zu Tickets, Events oder Kooperationen mit After Work Hamburg.',
);

export function Component() {
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
