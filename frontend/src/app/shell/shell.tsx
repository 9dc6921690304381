import type { ReactNode } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useRouteMeta } from '@/lib/page-head';
import { Footer } from './footer';
import { Header } from './header';
import './shell.css';

export function ShellFrame({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const isHome = pathname === paths.home;
  return (
    <>
      <a className="site-skip" href="#main">
        Zum Inhalt springen
      </a>
      <Header />
      <main
        id="main"
        tabIndex={-1}
        className={isHome ? 'site-main' : 'site-main site-main--padded'}
      >
        {children}
      </main>
      <Footer />
    </>
  );
}

export function Shell() {
  useRouteMeta();
  return (
    <ShellFrame>
      <Outlet />
      {/* Every fresh page load has the key "default"; keying those by path keeps one
          page's scroll position from being applied to another. */}
      <ScrollRestoration
        getKey={(location) => (location.key === 'default' ? location.pathname : location.key)}
      />
    </ShellFrame>
  );
}
