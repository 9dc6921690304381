import { staticMeta } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import { OrganizerApp } from '@/features/organizer/organizer-app';

// rules "The organizer": sales, check-ins and the waiting list of every event, live; never
// indexed, and nothing of it is rendered on the server (the session is the browser's).
export const handle = staticMeta(
  'Veranstalterbereich',
  'Interner Bereich für den Veranstalter: Verkäufe, Einlass und Warteliste der Events.',
  { noindex: true },
);

export function Component() {
  return (
    <Page
      title="Veranstalterbereich"
      eyebrow="Intern"
      lead="Verkäufe, Einlass und Warteliste jedes Events – die aktuellen Events live."
    >
      <OrganizerApp />
    </Page>
  );
}
