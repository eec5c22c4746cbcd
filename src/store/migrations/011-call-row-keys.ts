// Foreign-key checks run once per inserted row, and every settled call inserted a call log with
// four and a learning-outbox row with two. Two of them said less than one check can:
//
// - call_logs: (tenant_id) → tenants and (project_id) → projects become one composite key,
//   (project_id, tenant_id) → projects (id, tenant_id). One check instead of two, and a stronger
//   rule: a call log's project must belong to the call log's tenant.
// - learning_outbox: (tenant_id) → tenants and (project_id) → projects become (call_id) →
//   call_logs. The learning row is written with its call log, in the same statement, from the same
//   values; what it must not be is an orphan of a call that was never logged.
//
// Deleting a tenant still removes everything it owns: tenants → projects → call_logs →
// learning_outbox all cascade (nothing in the product deletes either).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects add constraint projects_id_tenant_key unique (id, tenant_id);
    alter table call_logs
      drop constraint call_logs_tenant_id_fkey,
      drop constraint call_logs_project_id_fkey,
      add constraint call_logs_project_tenant_fkey foreign key (project_id, tenant_id)
        references projects (id, tenant_id) on delete cascade;
    alter table learning_outbox
      drop constraint learning_outbox_tenant_id_fkey,
      drop constraint learning_outbox_project_id_fkey,
      add constraint learning_outbox_call_id_fkey foreign key (call_id) references call_logs (id) on delete cascade;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table learning_outbox
      drop constraint learning_outbox_call_id_fkey,
      add constraint learning_outbox_tenant_id_fkey foreign key (tenant_id) references tenants (id) on delete cascade,
      add constraint learning_outbox_project_id_fkey foreign key (project_id) references projects (id);
    alter table call_logs
      drop constraint call_logs_project_tenant_fkey,
      add constraint call_logs_tenant_id_fkey foreign key (tenant_id) references tenants (id) on delete cascade,
      add constraint call_logs_project_id_fkey foreign key (project_id) references projects (id);
    alter table projects drop constraint projects_id_tenant_key;
  `.execute(db);
}
