import type { FaqEntry } from '@awhh/machines';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { dataSource, sections } from '@/lib/data-source';
import type { RouteHandle } from '@/lib/page-head';
import { faqJsonLd } from '@/lib/structured-data';
import { Deferred } from '@/components/ui/deferred';
import { Loading, Skeleton } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import styles from './text-page.module.css';

// The questions come from the API, which also writes them into the page's FAQPage
// JSON-LD: one text for visitors and search engines.
export function loader({ request }: LoaderFunctionArgs) {
  return sections({ entries: dataSource().faq(request.signal) });
}

export const handle: RouteHandle<Awaited<ReturnType<typeof loader>>> = {
  meta: ({ data, pathname }) => ({
    title: 'Häufige Fragen',
    description:
      'Antworten rund um Tickets, Gutscheine, Einlass und Dresscode bei After Work Hamburg.',
    canonical: pathname,
    // The server's data is the list itself; FAQPage JSON-LD is for crawlers only.
    jsonLd: Array.isArray(data?.entries) ? [faqJsonLd(data.entries)] : [],
  }),
};

function FaqList({ entries }: { entries: FaqEntry[] }) {
  return (
    <div className={styles.faq}>
      {entries.map((item) => (
        <details key={item.question} className={styles.item}>
          <summary>{item.question}</summary>
          <div className={styles.answer}>
            {item.answer}
            {item.link && (
              <>
                {' '}
                <Link to={item.link.href}>{item.link.text}</Link>
              </>
            )}
          </div>
        </details>
      ))}
    </div>
  );
}

export function Component() {
  const { entries } = useLoaderData<typeof loader>();
  return (
    <Page title="Häufige Fragen" eyebrow="FAQ">
      <Deferred
        resolve={entries}
        fallback={
          <Loading label="Fragen werden geladen">
            <div className={styles.faq}>
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} height="3.5rem" />
              ))}
            </div>
          </Loading>
        }
      >
        {(list) => <FaqList entries={list} />}
      </Deferred>
    </Page>
  );
}
