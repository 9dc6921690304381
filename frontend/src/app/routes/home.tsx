import { lazy, type ReactNode } from 'react';
import { Link, useLoaderData, useRevalidator, type LoaderFunctionArgs } from 'react-router';
import {
  type BlogPostSummary,
  type EventSummary,
  formatLongDate,
  formatTime,
  type MerchSummary,
} from '@awhh/machines';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { availabilityLabel } from '@/lib/availability';
import { dataSource, sections } from '@/lib/data-source';
import { hasPriceRange } from '@/lib/offer';
import { SITE_NAME, type RouteHandle } from '@/lib/page-head';
import { useCalendarFeedUrl } from '@/lib/site-origin';
import { ButtonLink } from '@/components/ui/button';
import { Deferred } from '@/components/ui/deferred';
import { ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { Price } from '@/components/ui/price';
import { EventGrid, EventGridSkeleton } from '@/features/events/event-card';
import { BlogPostList, BlogPostListSkeleton } from '@/features/blog/blog-posts';
import styles from './home.module.css';

// The merch cards sit below the fold: their code loads beside their data, outside the
// first-load budget of `/` (frontend/build/size-budget.ts).
const merchCards = () => import('@/features/merch/merch-card');
const MerchGrid = lazy(() => merchCards().then((m) => ({ default: m.MerchGrid })));

export function loader({ request }: LoaderFunctionArgs) {
  const source = dataSource();
  return sections({
    events: source.events(request.signal),
    // A failed chunk fails the section like failed data: error state with retry.
    merch: Promise.all([source.merch(request.signal), merchCards()]).then(([items]) => items),
    posts: source.posts(request.signal),
  });
}

export const handle: RouteHandle<Awaited<ReturnType<typeof loader>>> = {
  meta: ({ data, origin }) => ({
    title: `${SITE_NAME} – Networking, Music & Drinks`,
    description: `${SITE_NAME} – Networking, Music & Drinks in exklusiven Locations. Tickets für die nächsten Events, Blog und FAQ.`,
    canonical: paths.home,
    // The featured event's image is the largest element of the first screen.
    lcpImage: Array.isArray(data?.events)
      ? (data.events.find((event) => !event.past)?.image?.src ?? null)
      : null,
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        name: SITE_NAME,
        url: `${origin}/`,
        inLanguage: 'de-DE',
        publisher: { '@type': 'Organization', name: SITE_NAME, url: `${origin}/` },
      },
    ],
  }),
};

function Featured({ event }: { event: EventSummary | undefined }) {
  if (!event) {
    return (
      <div className={styles.featured}>
        <div className={styles.featuredBody}>
          <span className={styles.featuredLabel}>Bald</span>
          <h2 className={styles.featuredTitle}>Das nächste After Work ist in Planung</h2>
          <p className={styles.featuredMeta}>Schau bald wieder vorbei oder schreib uns.</p>
          <ButtonLink to={paths.contact} variant="secondary">
            Kontakt
          </ButtonLink>
        </div>
      </div>
    );
  }
  const date = formatLongDate(event.startsAt);
  const time = formatTime(event.startsAt);
  return (
    <article className={styles.featured} aria-labelledby="featured-title">
      {event.image ? (
        <img src={event.image.src} alt={event.image.alt ?? ''} width={800} height={600} />
      ) : null}
      <div className={styles.featuredBody}>
        <span className={styles.featuredLabel}>Nächstes Event</span>
        <h2 id="featured-title" className={styles.featuredTitle}>
          {event.name}
        </h2>
        <p className={styles.featuredMeta}>
          {date}
          {time ? `, ${time}` : ''}
          {event.venue ? ` · ${event.venue}` : ''}
          <br />
          <Price
            price={event.price}
            regularPrice={event.regularPrice}
            from={hasPriceRange(event.variants)}
          />{' '}
          · {availabilityLabel(event.availability, event.available)}
        </p>
        <div className={styles.featuredActions}>
          <ButtonLink to={paths.event(event.slug)}>
            Tickets sichern<span className="visually-hidden"> für {event.name}</span>
          </ButtonLink>
        </div>
      </div>
    </article>
  );
}

function MerchSection({ children }: { children: ReactNode }) {
  return (
    <section className={styles.section} aria-labelledby="merch-title">
      <div className={styles.sectionHead}>
        <h2 id="merch-title">Merch</h2>
      </div>
      {children}
    </section>
  );
}

function MerchError({ error }: { error: unknown }) {
  const revalidator = useRevalidator();
  return (
    <MerchSection>
      <ErrorState message={errorText(error)} onRetry={() => void revalidator.revalidate()} />
    </MerchSection>
  );
}

function FeaturedSkeleton() {
  return (
    <div className={styles.featured} aria-hidden="true">
      <Skeleton style={{ aspectRatio: '4 / 3', width: '100%', borderRadius: 0 }} />
      <div className={styles.featuredBody}>
        <Skeleton height="1.2rem" width="8rem" style={{ marginBottom: '1rem' }} />
        <Skeleton height="2rem" width="80%" style={{ marginBottom: '1rem' }} />
        <Skeleton height="2.9rem" width="10rem" />
      </div>
    </div>
  );
}

export function Component() {
  const loaderData = useLoaderData<typeof loader>();
  const calendarHref = useCalendarFeedUrl();
  return (
    <>
      <section className={styles.hero} aria-labelledby="hero-title">
        <div className={`container ${styles.heroInner}`}>
          <div>
            <span className={styles.kicker}>Hamburg · After Work</span>
            <h1 id="hero-title" className={styles.title}>
              Networking, Music <em>&amp;</em> Drinks
            </h1>
            <p className={styles.lead}>
              Feierabend in exklusiven Locations: neue Kontakte, gute Gespräche, DJ-Sets und Drinks
              über den Dächern und an den Kais der Stadt.
            </p>
          </div>
          <Deferred resolve={loaderData.events} fallback={<FeaturedSkeleton />}>
            {(events) => <Featured event={events.find((e) => !e.past)} />}
          </Deferred>
        </div>
      </section>

      <div className="container">
        <section className={styles.section} aria-labelledby="upcoming-title">
          <div className={styles.sectionHead}>
            <h2 id="upcoming-title">Kommende Events</h2>
            <a href={calendarHref}>Alle Termine abonnieren</a>
          </div>
          <Deferred
            resolve={loaderData.events}
            fallback={
              <Loading label="Events werden geladen">
                <EventGridSkeleton />
              </Loading>
            }
          >
            {(events) => {
              const upcoming = events.filter((e) => !e.past);
              return upcoming.length > 0 ? (
                <EventGrid events={upcoming} />
              ) : (
                <p>Gerade sind keine Termine angekündigt – die nächsten Abende sind in Planung.</p>
              );
            }}
          </Deferred>
        </section>

        <Deferred resolve={loaderData.events} fallback={null} renderError={() => <></>}>
          {(events) => {
            const past = events.filter((e) => e.past);
            return past.length > 0 ? (
              <section className={styles.section} aria-labelledby="past-title">
                <div className={styles.sectionHead}>
                  <h2 id="past-title">Vergangene Events</h2>
                </div>
                <EventGrid events={past} />
              </section>
            ) : null;
          }}
        </Deferred>

        {/* rules "Everything the shop sells": merch on `/`; no section when there is none. */}
        <Deferred
          resolve={loaderData.merch}
          fallback={
            <MerchSection>
              <Loading label="Merch wird geladen">
                <Skeleton height="18rem" width="100%" />
              </Loading>
            </MerchSection>
          }
          renderError={(error) => <MerchError error={error} />}
        >
          {(items: MerchSummary[]) =>
            items.length > 0 ? (
              <MerchSection>
                <MerchGrid items={items} />
              </MerchSection>
            ) : null
          }
        </Deferred>

        <section className={`${styles.section} ${styles.last}`} aria-labelledby="blog-title">
          <div className={styles.sectionHead}>
            <h2 id="blog-title">Aus dem Blog</h2>
            <Link to={paths.blog}>Alle Beiträge</Link>
          </div>
          <Deferred
            resolve={loaderData.posts}
            fallback={
              <Loading label="Beiträge werden geladen">
                <BlogPostListSkeleton />
              </Loading>
            }
          >
            {(posts: BlogPostSummary[]) => <BlogPostList posts={posts.slice(0, 3)} />}
          </Deferred>
        </section>
      </div>
    </>
  );
}
