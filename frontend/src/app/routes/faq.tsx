import type { FaqEntry } from '@awhh/machines';
import { Link, useLoaderData } from 'react-router';
import { env } from '@/config/env';
import { api } from '@/config/paths';
import { apiGet } from '@/lib/api-client';
import { usePageMeta } from '@/lib/page-meta';
import { Deferred } from '@/components/ui/deferred';
import { Loading, Skeleton } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import styles from './text-page.module.css';

// The questions come from the API, which also writes them into the page's FAQPage
// JSON-LD: one text for visitors and search engines.
export function loader({ request }: { request: Request }) {
  return { entries: apiGet<FaqEntry[]>(api.faq, request.signal) };
}

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
  usePageMeta({
    title: 'FAQ',
    description: `Häufige Fragen zu Tickets, Ablauf und Bezahlung bei ${env.productName}.`,
  });
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
