import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { dataSource, sections } from '@/lib/data-source';
import { staticMeta } from '@/lib/page-head';
import { Deferred } from '@/components/ui/deferred';
import { Loading } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import { BlogPostList, BlogPostListSkeleton } from '@/features/blog/blog-posts';

export function loader({ request }: LoaderFunctionArgs) {
  return sections({ posts: dataSource().posts(request.signal) });
}

export const handle = staticMeta(
  'Blog',
  'Neuigkeiten, Rückblicke und Tipps rund um die After-Work-Events in Hamburg.',
);

export function Component() {
  const { posts } = useLoaderData<typeof loader>();
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
