// TanStack Query keys and hooks per resource. Keys are arrays under one root per resource, so a
// write can invalidate exactly what it changed.
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { get, qs } from './client.ts';
import type { Activity, Audit, Baseline, LedgerEntry, Overview, Page, Profile, Project, SavingsSeries, Summary, Tenant, Usage, Wallet } from './types.ts';

export const keys = {
  me: ['me'] as const,
  tenant: ['tenant'] as const,
  tenants: ['tenants'] as const,
  projects: ['projects'] as const,
  wallet: ['wallet'] as const,
  baseline: ['baseline'] as const,
  invoices: ['invoices'] as const,
  overview: ['insights', 'overview'] as const,
  savings: (window: string) => ['insights', 'savings', window] as const,
  usage: ['insights', 'usage'] as const,
  audit: ['insights', 'audit'] as const,
  activity: (p: Record<string, string | undefined>) => ['insights', 'activity', p] as const,
  summary: (p: Record<string, string | undefined>) => ['insights', 'summary', p] as const,
  ledger: (p: Record<string, string | undefined>) => ['ledger', p] as const,
};

export const useMe = () => useQuery({ queryKey: keys.me, queryFn: ({ signal }) => get<Profile>('/api/users/me', signal), staleTime: 60_000 });
export const useTenant = () =>
  useQuery({ queryKey: keys.tenant, queryFn: ({ signal }) => get<Tenant>('/api/tenant', signal), staleTime: 60_000, retry: false });
export const useProjects = () =>
  useQuery({ queryKey: keys.projects, queryFn: ({ signal }) => get<Page<Project>>('/api/projects?limit=200', signal), staleTime: 60_000 });
/**
 * The projects where a screen lists them all (the /smartone switcher, the /developer-zone key form,
 * the project pickers of /copy-paste, /integrations and /settings/ledger): D9 pages of 200 with
 * "Load more", the default project first. Under `keys.projects`, so invalidating that refreshes it
 * too. `useProjects` (the first 200) is left to /overview, which only follows their event streams.
 */
export const useProjectPages = () => usePaged<Project>([...keys.projects, 'paged'], '/api/projects', { limit: '200' });

/** One project read on its own (`GET /api/projects/:id`), for a choice not on the pages loaded. */
const oneProject = (id: string | null | undefined) => ({
  queryKey: [...keys.projects, 'one', id] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => get<Project>(`/api/projects/${id}`, signal),
  retry: false,
  staleTime: 60_000,
});

/**
 * A project picker's choices: the pages of `useProjectPages`, plus the chosen project when it is
 * not on them (a link, or a reload after "Load more"), read on its own so the choice stays listed.
 * `more`/`shown`/`paged` are the props of the `LoadMore` under the picker (shown once a team has
 * more than one page). `isLoading` holds until the chosen project is read too.
 */
export function useProjectChoices(chosen: string | null | undefined) {
  const pages = useProjectPages();
  const missing = !!chosen && !pages.isLoading && !pages.error && !pages.items.some((p) => p.id === chosen);
  const single = useQuery({ ...oneProject(chosen), enabled: missing });
  const items = missing && single.data ? [...pages.items, single.data] : pages.items;
  // Until the chosen project is read, the picker is still loading: falling back to the default in
  // that moment would show (and let a user act on) a project they did not choose.
  const readingChosen = missing && single.isPending;
  return { items, isLoading: pages.isLoading || readingChosen, error: pages.error, more: pages.more, shown: pages.items.length, paged: pages.hasMore || pages.pagesLoaded > 1 };
}

/**
 * Names of projects by id, for rows that name a project (the ledger): those on the loaded pages, the
 * others read one by one; an id the API no longer knows is a deleted project (null), one still
 * being read is undefined.
 */
export function useProjectNames(loaded: readonly Project[], ids: readonly string[]): Map<string, string | null | undefined> {
  const known = new Map<string, string | null | undefined>(loaded.map((p) => [p.id, p.name]));
  const unknown = [...new Set(ids)].filter((id) => !known.has(id));
  const read = useQueries({ queries: unknown.map((id) => oneProject(id)) });
  unknown.forEach((id, i) => known.set(id, read[i].data ? read[i].data.name : read[i].isError ? null : undefined));
  return known;
}
export const useWallet = () => useQuery({ queryKey: keys.wallet, queryFn: ({ signal }) => get<Wallet>('/api/tenant/wallet', signal) });
export const useBaseline = () => useQuery({ queryKey: keys.baseline, queryFn: ({ signal }) => get<Baseline>('/api/tenant/baseline', signal) });
export const useOverview = () => useQuery({ queryKey: keys.overview, queryFn: ({ signal }) => get<Overview>('/api/tenant/insights/overview', signal) });
export const useSavings = (window: string) =>
  useQuery({ queryKey: keys.savings(window), queryFn: ({ signal }) => get<SavingsSeries>(`/api/tenant/insights/savings${qs({ window })}`, signal) });
export const useUsage = () => useQuery({ queryKey: keys.usage, queryFn: ({ signal }) => get<Usage>('/api/tenant/insights/usage', signal) });
export const useAudit = () => useQuery({ queryKey: keys.audit, queryFn: ({ signal }) => get<Audit>('/api/tenant/insights/audit', signal) });
export const useActivity = (p: Record<string, string | undefined>, enabled = true) =>
  useQuery({ queryKey: keys.activity(p), queryFn: ({ signal }) => get<Activity>(`/api/tenant/insights/activity${qs(p)}`, signal), enabled });
export const useSummary = (p: Record<string, string | undefined>, enabled = true) =>
  useQuery({ queryKey: keys.summary(p), queryFn: ({ signal }) => get<Summary>(`/api/tenant/insights/summary${qs(p)}`, signal), enabled });
export const useLedger = (p: Record<string, string | undefined>) =>
  useQuery({ queryKey: keys.ledger(p), queryFn: ({ signal }) => get<Page<LedgerEntry>>(`/api/tenant/ledger${qs(p)}`, signal) });

/**
 * A D9 cursor-paged list read page by page: the first page at once, the next ones on "Load more"
 * (components/ui.tsx `LoadMore`). Invalidating the key refetches every page loaded so far.
 */
export function usePaged<T, X extends object = object>(queryKey: readonly unknown[], path: string, params: Record<string, string | undefined> = {}, enabled = true, opts: { retry?: boolean } = {}) {
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ signal, pageParam }) => get<{ items: T[]; nextCursor: string | null } & X>(`${path}${qs({ ...params, cursor: pageParam ?? undefined })}`, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    ...(opts.retry === undefined ? {} : { retry: opts.retry }),
  });
  return {
    items: q.data?.pages.flatMap((p) => p.items) ?? [],
    /** The first page whole, for what a list endpoint sends beside its items (e.g. the budget's change trail). */
    first: q.data?.pages[0],
    pagesLoaded: q.data?.pages.length ?? 0,
    hasMore: q.hasNextPage,
    loadMore: () => void q.fetchNextPage(),
    loadingMore: q.isFetchingNextPage,
    isLoading: q.isLoading,
    error: q.error,
    /** The props of a `LoadMore` under the list. */
    more: { hasMore: q.hasNextPage, loading: q.isFetchingNextPage, onMore: () => void q.fetchNextPage() },
  };
}
