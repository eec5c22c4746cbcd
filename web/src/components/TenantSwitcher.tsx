// The team (tenant) in the shell: its name, and a switcher when the user belongs to more than
// one (D13: POST /api/auth/switch gives a token pair for the other membership, same session).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import type { switchResult, tenantsList } from '../../../src/http/api/auth/schemas.ts';
import { api, get } from '../api/client.ts';
import { signedIn } from '../api/session.ts';
import { keys } from '../api/queries.ts';
import type { Tenant } from '../api/types.ts';

export function TenantSwitcher({ tenant }: { tenant: Tenant | undefined }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const list = useQuery({ queryKey: keys.tenants, queryFn: ({ signal }) => get<z.output<typeof tenantsList>>('/api/auth/tenants', signal), staleTime: 60_000 });
  if (!tenant) return null;
  const others = (list.data?.items ?? []).filter((t) => t.tenantId !== tenant.id);
  if (others.length === 0) {
    return (
      <span className="tenant" data-testid="tenant-name">
        {tenant.name}
      </span>
    );
  }
  const switchTo = async (tenantId: string) => {
    const r = await api<z.output<typeof switchResult>>('POST', '/api/auth/switch', { tenantId });
    signedIn(r.tokens.accessToken);
    // Everything cached belongs to the other team.
    qc.clear();
    navigate('/overview');
  };
  return (
    <MenuTrigger>
      <AriaButton className="tenant tenant-button" aria-label={`Team: ${tenant.name}. Switch team`} data-testid="tenant-name">
        {tenant.name} ▾
      </AriaButton>
      <Popover className="popover">
        <Menu className="menu" onAction={(k) => void switchTo(String(k))} aria-label="Switch team">
          {others.map((t) => (
            <MenuItem key={t.tenantId} id={t.tenantId} className="menu-item">
              {t.name} ({t.role})
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
