// The web app's routes (D13), known to the server so that it answers index.html with 200 for a
// screen and with 404 for anything else (the app then draws its not-found page). The web app's
// router reads the same list, so a screen is added in one place (web/README.md).

/** Screens that exist today. Add a route here and in web/src/routes.tsx together. */
export const APP_ROUTES = [
  '/overview',
  '/analytics',
  '/summary',
  '/account',
  '/security',
  '/notifications',
  '/billing',
  '/settings/ledger',
  '/device',
  '/copy-paste',
  '/advisory',
  '/smartone',
  '/developer-zone',
  '/integrations',
  '/admin',
  '/admin/learning',
  '/admin/learning/budget',
  '/admin/webhooks',
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/invite',
] as const;

export const isAppRoute = (path: string): boolean => {
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return p === '/' || (APP_ROUTES as readonly string[]).includes(p);
};
