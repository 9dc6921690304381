import { useLoaderData } from 'react-router';
import { env } from '@/config/env';
import { usePageMeta } from '@/lib/page-meta';
import { Deferred } from '@/components/ui/deferred';
import { Loading } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import { fetchPosts } from '@/features/blog/api';
import { BlogPostList, BlogPostListSkeleton } from '@/features/blog/blog-posts';

export function loader({ request }: { request: Request }) {
  return { posts: fetchPosts(request.signal) };
}

export function Component() {
  const { posts } = useLoaderData<typeof loader>();
  usePageMeta({
    title: 'Blog',
    description: `Neuigkeiten, Rückblicke und Locations von ${env.productName}.`,
  });
  return (
    <Page
      title="Blog"
      eyebrow="Journal"
      lead="Rückblicke, neue Locations und Geschichten aus der Hamburger Afterwork-Szene."
    >
      <Deferred
        resolve={posts}
        fallback={
          <Loading label="Beiträge werden geladen">
            <BlogPostListSkeleton count={6} />
          </Loading>
        }
      >
        {(list) => <BlogPostList posts={list} headingLevel={2} />}
      </Deferred>
    </Page>
  );
}
