// Every screen of the web app, in one list: the router and the navigation read it (each screen
// is its own chunk through React.lazy). The server's list (src/core/web-routes.ts) must name the
// same paths; web/src/routes.test.ts checks that. To add a screen, see web/README.md.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface Screen {
  path: string;
  title: string;
  /** 'app': signed in, inside the shell; 'public': the sign-in screens. */
  area: 'app' | 'public';
  /** Shown in the shell's navigation (app screens). */
  nav?: boolean;
  /** Shown in the navigation's Admin group, to platform admins only (the API refuses everyone else). */
  adminNav?: boolean;
  component: LazyExoticComponent<ComponentType>;
}

export const SCREENS: Screen[] = [
  { path: '/overview', title: 'Overview', area: 'app', nav: true, component: lazy(() => import('./screens/overview/OverviewPage.tsx')) },
  { path: '/analytics', title: 'Analytics', area: 'app', nav: true, component: lazy(() => import('./screens/analytics/AnalyticsPage.tsx')) },
  { path: '/summary', title: 'Summary', area: 'app', nav: true, component: lazy(() => import('./screens/summary/SummaryPage.tsx')) },
  { path: '/account', title: 'Account', area: 'app', nav: true, component: lazy(() => import('./screens/account/AccountPage.tsx')) },
  { path: '/security', title: 'Security', area: 'app', nav: true, component: lazy(() => import('./screens/security/SecurityPage.tsx')) },
  { path: '/notifications', title: 'Notifications', area: 'app', nav: true, component: lazy(() => import('./screens/notifications/NotificationsPage.tsx')) },
  { path: '/billing', title: 'Billing', area: 'app', nav: true, component: lazy(() => import('./screens/billing/BillingPage.tsx')) },
  { path: '/settings/ledger', title: 'Ledger', area: 'app', nav: true, component: lazy(() => import('./screens/settings-ledger/LedgerPage.tsx')) },
  { path: '/admin', title: 'Admin console', area: 'app', adminNav: true, component: lazy(() => import('./screens/admin-home/AdminHomePage.tsx')) },
  { path: '/admin/learning', title: 'Learning plane', area: 'app', adminNav: true, component: lazy(() => import('./screens/admin-learning/AdminLearningPage.tsx')) },
  { path: '/smartone', title: 'SmartOne', area: 'app', nav: true, component: lazy(() => import('./screens/smartone/SmartonePage.tsx')) },
  { path: '/integrations', title: 'Integrations', area: 'app', nav: true, component: lazy(() => import('./screens/integrations/IntegrationsPage.tsx')) },
  { path: '/developer-zone', title: 'Developer zone', area: 'app', nav: true, component: lazy(() => import('./screens/developer-zone/DeveloperZonePage.tsx')) },
  { path: '/copy-paste', title: 'Copy-paste', area: 'app', nav: true, component: lazy(() => import('./screens/copy-paste/CopyPastePage.tsx')) },
  { path: '/advisory', title: 'Advisory', area: 'app', nav: true, component: lazy(() => import('./screens/advisory/AdvisoryPage.tsx')) },
  { path: '/admin/learning/budget', title: 'Learning-plane budget', area: 'app', component: lazy(() => import('./screens/admin-learning-budget/AdminLearningBudgetPage.tsx')) },
  { path: '/admin/webhooks', title: 'Webhook deliveries', area: 'app', adminNav: true, component: lazy(() => import('./screens/admin-webhooks/AdminWebhooksPage.tsx')) },
  { path: '/device', title: 'Sign in a device', area: 'app', component: lazy(() => import('./screens/device/DevicePage.tsx')) },
  { path: '/login', title: 'Sign in', area: 'public', component: lazy(() => import('./screens/login/LoginPage.tsx')) },
  { path: '/signup', title: 'Create an account', area: 'public', component: lazy(() => import('./screens/signup/SignupPage.tsx')) },
  { path: '/forgot-password', title: 'Forgot password', area: 'public', component: lazy(() => import('./screens/forgot-password/ForgotPasswordPage.tsx')) },
  { path: '/reset-password', title: 'Choose a new password', area: 'public', component: lazy(() => import('./screens/reset-password/ResetPasswordPage.tsx')) },
  { path: '/verify-email', title: 'Verify your e-mail', area: 'public', component: lazy(() => import('./screens/verify-email/VerifyEmailPage.tsx')) },
  { path: '/invite', title: 'Join a team', area: 'public', component: lazy(() => import('./screens/invite/InvitePage.tsx')) },
];
