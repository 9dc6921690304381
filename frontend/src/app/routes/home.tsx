import { lazy, type ReactNode } from 'react';
import { Link, useLoaderData, useRevalidator } from 'react-router';
import {
  type BlogPostSummary,
  type EventSummary,
  formatLongDate,
  formatTime,
  type MerchSummary,
} from '@awhh/machines';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { hasPriceRange } from '@/lib/offer';
import { usePageMeta } from '@/lib/page-meta';
import { ButtonLink } from '@/components/ui/button';
import { Deferred } from '@/components/ui/deferred';
import { ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { Price } from '@/components/ui/price';
import { fetchEvents } from '@/features/events/api';
import { availabilityLabel } from '@/features/events/availability';
import { EventGrid, EventGridSkeleton } from '@/features/events/event-card';
import { fetchPosts } from '@/features/blog/api';
import { BlogPostList, BlogPostListSkeleton } from '@/features/blog/blog-posts';
import styles from './home.module.css';

// The merch cards sit below the fold: their code loads beside their data, outside the
// first-load budget of `/` (frontend/build/size-budget.ts).
const merchCards = () => import('@/features/merch/merch-card');
const merchApi = () => import('@/features/merch/api');
const MerchGrid = lazy(() => merchCards().then((m) => ({ default: m.MerchGrid })));

export function loader({ request }: { request: Request }) {
  // Not awaited: the page renders at once with skeletons (loading states everywhere).
  return {
    events: fetchEvents(request.signal),
    // A failed chunk fails the section like failed data: error state with retry.
    // The server preloads /api/merch with the HTML, so the data is not held up by the chunk.
    merch: Promise.all([merchApi().then((m) => m.fetchMerch(request.signal)), merchCards()]).then(
      ([items]) => items,
    ),
    posts: fetchPosts(request.signal),
  };
}

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
  usePageMeta({
    title: env.productName,
    description: `${env.productName} – Networking, Music & Drinks in exklusiven Locations. Alle Termine, Tickets und Neuigkeiten.`,
  });
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

        {/* DESIGN "Everything the shop sells": merch on `/`; no section when there is none. */}
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
