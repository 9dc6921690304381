import { Link } from 'react-router';
import { type BlogPost, type BlogPostSummary, formatShortDate } from '@awhh/machines';
import { paths } from '@/config/paths';
import { Skeleton } from '@/components/ui/feedback';
import styles from './blog.module.css';

function Byline({ post }: { post: BlogPostSummary }) {
  const date = formatShortDate(post.publishedAt);
  return (
    <p className={styles.meta}>
      {date ? <time dateTime={post.publishedAt}>{date}</time> : null}
      {post.author ? ` · ${post.author}` : ''}
    </p>
  );
}

export function BlogPostList({
  posts,
  headingLevel = 3,
}: {
  posts: BlogPostSummary[];
  /** 2 on /blog (under the h1), 3 inside a section of another page. */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  if (posts.length === 0) return <p>Noch keine Beiträge – schau bald wieder vorbei.</p>;
  return (
    <ul className={styles.list}>
      {posts.map((post) => (
        <li key={post.slug}>
          <article className={styles.card}>
            {post.image ? (
              <img
                src={post.image.src}
                alt={post.image.alt ?? ''}
                loading="lazy"
                width={640}
                height={360}
              />
            ) : null}
            <div className={styles.body}>
              <Byline post={post} />
              <Heading className={styles.title}>
                <Link to={paths.blogPost(post.slug)}>{post.title}</Link>
              </Heading>
              <p className={styles.excerpt}>{post.excerpt}</p>
            </div>
          </article>
        </li>
      ))}
    </ul>
  );
}

export function BlogPostListSkeleton({ count = 3 }: { count?: number }) {
  return (
    <ul className={styles.list} aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className={styles.card}>
          <Skeleton style={{ aspectRatio: '16 / 9', width: '100%', borderRadius: 0 }} />
          <div className={styles.body}>
            <Skeleton height="0.8rem" width="40%" style={{ marginBottom: '0.75rem' }} />
            <Skeleton height="1.4rem" width="80%" style={{ marginBottom: '0.75rem' }} />
            <Skeleton height="1rem" width="95%" />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function BlogArticle({ post }: { post: BlogPost }) {
  return (
    <article className={`container ${styles.article}`}>
      <header style={{ paddingTop: 'var(--space-6)' }}>
        <Byline post={post} />
        <h1>{post.title}</h1>
      </header>
      {post.image ? (
        <div className={styles.cover}>
          <img src={post.image.src} alt={post.image.alt ?? ''} width={1280} height={720} />
        </div>
      ) : null}
      {/* Sanitised on the server (rules "/blog"). */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
      <Link className={styles.back} to={paths.blog}>
        ← Alle Beiträge
      </Link>
    </article>
  );
}

export function BlogArticleSkeleton() {
  return (
    <div className="container" style={{ paddingTop: 'var(--space-6)' }}>
      <Skeleton height="0.8rem" width="10rem" style={{ marginBottom: '1rem' }} />
      <Skeleton height="3rem" width="70%" style={{ marginBottom: '2rem' }} />
      <Skeleton height="1rem" width="100%" style={{ marginBottom: '0.5rem' }} />
      <Skeleton height="1rem" width="95%" style={{ marginBottom: '0.5rem' }} />
      <Skeleton height="1rem" width="60%" />
    </div>
  );
}
