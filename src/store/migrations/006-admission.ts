// Admission leases (D8, docs/decisions.md "Admission and group commit"): a replica reserves a
// chunk of a tenant's wallet for one project once, as one `reservations` row of kind 'lease', and
// admits calls against it in memory. Settlement consumes the lease (its amount shrinks by what the
// calls used) and a lease that is no longer needed is released. Like any hold, a lease whose
// replica died is swept after RESERVATION_TIMEOUT_MS; a replica renews its leases long before that.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table reservations add column kind text not null default 'call' check (kind in ('call', 'lease'));

    -- Take a lease in one round trip. First, optionally trim the replica's previous lease for this
    -- project by the part no call is using (p_old_release), so that part counts as available again;
    -- then grant up to p_want (never more than half of what the wallet has available, so other
    -- replicas keep a share) and at least p_need, within the project's monthly budget.
    -- Lock order as everywhere (wallet.ts): the reservation row, then the wallet, then the budget.
    -- A VOLATILE plpgsql function takes a fresh snapshot per statement (see sb_reserve): once the
    -- wallet row is locked, the budget read sees everything committed before it.
    create function sb_lease(p_old uuid, p_old_release bigint, p_id uuid, p_tenant uuid, p_project uuid,
                             p_want bigint, p_need bigint, p_at timestamptz, p_month date)
    returns table (result text, granted bigint, old_trimmed boolean)
    language plpgsql volatile as $fn$
    declare
      v_avail bigint;
      v_grant bigint;
      v_budget bigint;
      v_used bigint;
      v_trimmed boolean := null;
    begin
      if p_old is not null then
        update reservations set amount_micros = amount_micros - p_old_release
         where id = p_old and tenant_id = p_tenant and kind = 'lease' and status = 'reserved' and amount_micros >= p_old_release;
        v_trimmed := found;
        if found and p_old_release > 0 then
          update wallets set reserved_micros = reserved_micros - p_old_release, updated_at = p_at where tenant_id = p_tenant;
        end if;
      end if;
      select balance_micros - reserved_micros into v_avail from wallets where tenant_id = p_tenant for update;
      if not found or v_avail < p_need then
        return query select 'insufficient_balance'::text, 0::bigint, v_trimmed;
        return;
      end if;
      v_grant := least(p_want, greatest(p_need, v_avail / 2));
      select monthly_budget_micros into v_budget
        from projects where id = p_project and tenant_id = p_tenant and deleted_at is null;
      if not found then
        return query select 'project_not_found'::text, 0::bigint, v_trimmed;
        return;
      end if;
      if v_budget is not null then
        select coalesce((select spent_micros from project_spend where project_id = p_project and month = p_month), 0)
             + coalesce((select sum(amount_micros) from reservations where project_id = p_project and status = 'reserved'), 0)
          into v_used;
        if v_used + p_need > v_budget then
          return query select 'budget_exceeded'::text, 0::bigint, v_trimmed;
          return;
        end if;
        v_grant := least(v_grant, v_budget - v_used);
      end if;
      update wallets set reserved_micros = reserved_micros + v_grant, updated_at = p_at where tenant_id = p_tenant;
      insert into reservations (id, tenant_id, project_id, amount_micros, status, created_at, kind)
      values (p_id, p_tenant, p_project, v_grant, 'reserved', p_at, 'lease');
      return query select 'ok'::text, v_grant, v_trimmed;
    end
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop function sb_lease(uuid, bigint, uuid, uuid, uuid, bigint, bigint, timestamptz, date);
    alter table reservations drop column kind;
  `.execute(db);
}
