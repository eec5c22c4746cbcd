// The app: one query client, the router built from SCREENS, the session gate. `/` goes to
// /overview when signed in and to /login otherwise (D13); unknown paths show the not-found page.
import { Suspense, useEffect, useSyncExternalStore } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { RouterProvider } from 'react-aria-components';
import { useNavigate, useHref } from 'react-router';
import { getStatus, refresh, subscribe } from './api/session.ts';
import { ApiError } from './api/client.ts';
import { SCREENS } from './routes.tsx';
import { Shell } from './components/Shell.tsx';
import { NotFound } from './components/NotFound.tsx';
import { Loading } from './components/ui.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: true,
      retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2,
    },
  },
});

export const useSession = () => useSyncExternalStore(subscribe, getStatus);

function useBootSession() {
  const status = useSession();
  useEffect(() => {
    if (status === 'unknown') void refresh();
  }, [status]);
  return status;
}

function RequireSignedIn({ children }: { children: React.ReactNode }) {
  const status = useBootSession();
  const loc = useLocation();
  if (status === 'unknown') return <Loading what="your session" />;
  if (status === 'signed-out') return <Navigate to={`/login?next=${encodeURIComponent(loc.pathname + loc.search)}`} replace />;
  return <>{children}</>;
}

function Home() {
  const status = useBootSession();
  if (status === 'unknown') return <Loading what="your session" />;
  return <Navigate to={status === 'signed-in' ? '/overview' : '/login'} replace />;
}

function Titled({ title, children }: { title: string; children: React.ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Switchboard`;
  }, [title]);
  return <>{children}</>;
}

function AriaRouter({ children }: { children: React.ReactNode }) {
  const navigate = useNavigate();
  return (
    <RouterProvider navigate={navigate} useHref={useHref}>
      {children}
    </RouterProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AriaRouter>
          <Suspense fallback={<Loading what="the page" />}>
            <Routes>
              <Route path="/" element={<Home />} />
              {SCREENS.filter((s) => s.area === 'public').map((s) => (
                <Route
                  key={s.path}
                  path={s.path}
                  element={
                    <Titled title={s.title}>
                      <main className="public" id="main">
                        <s.component />
                      </main>
                    </Titled>
                  }
                />
              ))}
              <Route
                element={
                  <RequireSignedIn>
                    <Shell />
                  </RequireSignedIn>
                }
              >
                {SCREENS.filter((s) => s.area === 'app').map((s) => (
                  <Route
                    key={s.path}
                    path={s.path}
                    element={
                      <Titled title={s.title}>
                        <Suspense fallback={<Loading what={s.title.toLowerCase()} />}>
                          <s.component />
                        </Suspense>
                      </Titled>
                    }
                  />
                ))}
              </Route>
              <Route path="*" element={<Titled title="Page not found"><NotFound /></Titled>} />
            </Routes>
          </Suspense>
        </AriaRouter>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
