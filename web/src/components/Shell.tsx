// The signed-in frame: a skip link, the tenant's name, navigation to every built screen, and
// sign out. The screen renders in <main>.
import { NavLink, Outlet, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { signedOut } from '../api/session.ts';
import { useMe, useTenant } from '../api/queries.ts';
import { SCREENS } from '../routes.tsx';
import { Button } from './ui.tsx';
import { TenantSwitcher } from './TenantSwitcher.tsx';
import { IdleGuard } from './IdleGuard.tsx';

export function Shell() {
  const me = useMe();
  const tenant = useTenant();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const signOut = async () => {
    await api('POST', '/api/auth/logout', {}).catch(() => undefined);
    signedOut();
    qc.clear();
    navigate('/login', { replace: true });
  };
  return (
    <div className="shell">
      <IdleGuard />
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Switchboard</span>
        <TenantSwitcher tenant={tenant.data} />
        <span className="spacer" />
        {me.data ? <span className="who">{me.data.name}</span> : null}
        <Button variant="secondary" onPress={signOut}>
          Sign out
        </Button>
      </header>
      <div className="frame">
        <nav aria-label="Main" className="sidenav">
          <ul>
            {SCREENS.filter((s) => s.nav).map((s) => (
              <li key={s.path}>
                <NavLink to={s.path}>{s.title}</NavLink>
              </li>
            ))}
          </ul>
          {me.data?.platformAdmin ? (
            <>
              <h2 className="nav-group" id="nav-admin">
                Admin
              </h2>
              <ul aria-labelledby="nav-admin">
                {SCREENS.filter((s) => s.adminNav).map((s) => (
                  <li key={s.path}>
                    <NavLink to={s.path}>{s.title}</NavLink>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {/* Outside the app: the server's API reference (Swagger UI over /openapi.json). */}
          <a className="api-ref" href="/docs/">
            API reference
          </a>
        </nav>
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
