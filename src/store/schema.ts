// Kysely table types, one interface per table, mirroring migrations/. int8 → bigint (db.ts).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T = unknown> = ColumnType<T, string | undefined, string>;

export interface TenantsTable {
  id: Generated<string>;
  name: string;
  baseline_provider_key: string | null;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  name: string;
  timezone: Generated<string>;
  bio: string | null;
  avatar_url: string | null;
  email_verified_at: NullableTimestamp;
  /** An address the user asked to change to, waiting for its verification link (migration 018). */
  pending_email: string | null;
  platform_admin: Generated<boolean>;
  idle_timeout: Generated<string>;
  failed_logins: Generated<number>;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  tenant_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  created_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  tenant_id: string;
  refresh_jti: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoke_reason: string | null;
  /** The device of a desktop-bridge session (D14); null for a browser sign-in. */
  name: Generated<string | null>;
}

export interface ConnectorHeartbeatsTable {
  project_id: string;
  tenant_id: string;
  channel: string;
  key_id: string | null;
  session_id: string | null;
  last_seen_at: Timestamp;
}

export interface DeviceAuthorizationsTable {
  id: Generated<string>;
  device_code_hash: Buffer;
  user_code: string;
  device_name: string;
  status: Generated<'pending' | 'approved' | 'denied' | 'consumed'>;
  user_id: string | null;
  tenant_id: string | null;
  session_id: string | null;
  interval_s: number;
  last_polled_at: NullableTimestamp;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  decided_at: NullableTimestamp;
}

export interface PersonalAccessTokensTable {
  id: Generated<string>;
  user_id: string;
  tenant_id: string;
  name: string;
  token_hash: Buffer;
  prefix: string;
  last4: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface SecurityAuditTable {
  id: Generated<string>;
  user_id: string;
  tenant_id: string | null;
  seq: bigint;
  event: string;
  ip: string | null;
  user_agent: string | null;
  detail: Json<Record<string, unknown>>;
  created_at: Timestamp;
  prev_hash: string;
  seal_hash: string;
}

export interface ProjectsTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  is_default: Generated<boolean>;
  monthly_budget_micros: bigint | null;
  /** numeric(4,3): pg returns a string like '0.600'. */
  quality_floor: ColumnType<string, string | number | undefined, string | number>;
  benchmark_override: string | null;
  integrations: Json<string[]>;
  stage: Generated<'onboarding' | 'connected' | 'live' | 'paused'>;
  region: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
  /** 003-events: what paused the project (D4), and when its budget was last found exhausted. */
  paused_for: 'budget' | 'wallet' | null;
  budget_exhausted_at: NullableTimestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  tenant_id: string;
  project_id: string;
  name: string;
  environment: 'dev' | 'staging' | 'production';
  key_hash: Buffer;
  prefix: string;
  last4: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  rotated_from_id: string | null;
  /** The desktop-bridge session that made the key (D14); its end revokes the key (migration 028b). */
  session_id: Generated<string | null>;
}

export interface WalletsTable {
  tenant_id: string;
  balance_micros: Generated<bigint>;
  reserved_micros: Generated<bigint>;
  ledger_seq: Generated<bigint>;
  last_seal_hash: Generated<string>;
  auto_topup_threshold_micros: bigint | null;
  auto_topup_amount_micros: bigint | null;
  auto_topup_armed: Generated<boolean>;
  updated_at: Timestamp;
}

export interface LedgerEntriesTable {
  id: string;
  tenant_id: string;
  project_id: string | null;
  seq: bigint;
  event_type: 'WALLET_TOPUP' | 'AI_USAGE' | 'REFUND' | 'ADJUSTMENT';
  customer_label: string;
  amount_micros: bigint;
  balance_after_micros: bigint;
  model_id: string | null;
  provider_key: string | null;
  benchmark_provider: string | null;
  benchmark_methodology_version: string | null;
  actual_cost_usd_micros: bigint | null;
  baseline_cost_usd_micros: bigint | null;
  benchmark_pricing_version: string | null;
  call_id: string | null;
  memo: string | null;
  qa: Json<Record<string, unknown> | null>;
  seal_hash: string;
  prev_hash: string;
  created_at: Timestamp;
}

export type ReservationStatus = 'reserved' | 'settled' | 'released' | 'swept';

export interface ReservationsTable {
  id: string;
  tenant_id: string;
  project_id: string;
  amount_micros: bigint;
  status: Generated<ReservationStatus>;
  created_at: Timestamp;
  settled_at: NullableTimestamp;
  released_at: NullableTimestamp;
  swept_at: NullableTimestamp;
  sweep_reason: string | null;
  /** 'call': one call's worst case; 'lease': a replica's admission budget for a project (migration 006). */
  kind: Generated<'call' | 'lease'>;
}

export interface ProjectSpendTable {
  project_id: string;
  /** date: pg returns a Date at UTC midnight of the month's first day. */
  month: ColumnType<Date, string, string>;
  tenant_id: string;
  spent_micros: Generated<bigint>;
}

export interface CallLogsTable {
  id: string;
  tenant_id: string;
  project_id: string;
  key_id: string | null;
  parent_call_id: string | null;
  attempt: Generated<number>;
  escalated: Generated<boolean>;
  status: 'succeeded' | 'failed';
  error_code: string | null;
  channel: string;
  client_shape: string | null;
  stream: Generated<boolean>;
  conversation_id: string | null;
  task_family: string | null;
  complexity: string | null;
  model_class: string | null;
  routing_table_version: string | null;
  routing_features: Json<Record<string, unknown> | null>;
  routing_rules: Json<string[]>;
  provider_key: string | null;
  model_id: string | null;
  region: string | null;
  benchmark_provider: string | null;
  benchmark_methodology_version: string | null;
  actual_cost_usd_micros: bigint | null;
  baseline_cost_usd_micros: bigint | null;
  benchmark_pricing_version: string | null;
  debited_micros: Generated<bigint>;
  uncollected_micros: Generated<bigint>;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  cached_input_tokens: number | null;
  latency_ms: number | null;
  qa: Json<Record<string, unknown> | null>;
  qa_scored_at: NullableTimestamp;
  prompt_excerpt: Generated<string>;
  ledger_entry_id: string | null;
  created_at: Timestamp;
}

export interface LearningOutboxTable {
  id: Generated<bigint>;
  call_id: string;
  tenant_id: string;
  project_id: string;
  provider_key: string | null;
  model_id: string;
  model_class: string | null;
  request: Json<unknown>;
  response: Json<unknown>;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number | null;
  created_at: Timestamp;
  consumed_at: NullableTimestamp;
  /** Written by the settlement: true when it did not carry the call's QA score (the plane waits for it; migration 029). */
  qa_wait: Generated<boolean>;
}

/** The view of migration 008: an outbox row with its call's QA score (spec §4 LearningOutboxEvent). */
export interface LearningOutboxEventsView extends Omit<LearningOutboxTable, 'id' | 'qa_wait'> {
  id: bigint;
  quality_score: Json<Record<string, unknown> | null>;
}

export type PaymentProcessorName = 'sandbox' | 'stripe';

export interface PaymentMethodsTable {
  tenant_id: string;
  processor: PaymentProcessorName;
  customer_ref: string | null;
  method_ref: string | null;
  label: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type TopupStatus = 'checkout_started' | 'credited' | 'failed';

export interface TopupsTable {
  id: string;
  tenant_id: string;
  kind: 'checkout' | 'auto';
  amount_micros: bigint;
  processor: PaymentProcessorName;
  processor_ref: string | null;
  status: Generated<TopupStatus>;
  failure_reason: string | null;
  created_by: string | null;
  created_at: Timestamp;
  credited_at: NullableTimestamp;
  ledger_entry_id: string | null;
  /** The processor's payment (Stripe PaymentIntent) that refund events name. */
  payment_ref: string | null;
  refunded_micros: Generated<bigint>;
}

export interface ProcessorEventsTable {
  processor: PaymentProcessorName;
  event_id: string;
  event_type: string;
  received_at: Timestamp;
}

export interface InvoicesTable {
  id: Generated<string>;
  tenant_id: string;
  topup_id: string;
  number: string;
  amount_micros: bigint;
  currency: Generated<string>;
  billed_to: string;
  description: string;
  payment_ref: string | null;
  issued_at: Timestamp;
}

export interface Layer3RulesetsTable {
  version: bigint;
  rules: Json<unknown[]>;
  rules_version: string;
  stats_window_ms: bigint;
  calls_considered: bigint;
  created_at: Timestamp;
}

export interface Layer3RuleChangesTable {
  id: Generated<bigint>;
  ruleset_version: bigint;
  change: 'added' | 'removed' | 'renewed';
  rule_id: string;
  rule: Json<Record<string, unknown>>;
  reason: string;
  created_at: Timestamp;
}

export interface EventOutboxTable {
  id: Generated<bigint>;
  tenant_id: string;
  project_id: string;
  frame: Json<Record<string, unknown>>;
  tenant_wide: Generated<boolean>;
  created_at: Timestamp;
  published_at: NullableTimestamp;
}

export interface WebhooksTable {
  id: string;
  tenant_id: string;
  url: string;
  events: string[];
  description: string;
  secret_enc: string;
  secret_hint: string;
  enabled: Generated<boolean>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationSettingsTable {
  tenant_id: string;
  user_id: string;
  balance_threshold_micros: bigint | null;
  runway_threshold_days: number | null;
  escalation_alert: Generated<boolean>;
  digest_cadence: Generated<'daily' | 'weekly' | 'off'>;
  webhook_url: string | null;
  webhook_secret_enc: string | null;
  channel: Generated<'email' | 'webhook'>;
  balance_alert_armed: Generated<boolean>;
  runway_alert_armed: Generated<boolean>;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  tenant_id: string;
  webhook_id: string | null;
  user_id: string | null;
  event_type: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  lease_until: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  signature: string | null;
  replay_requested: Generated<boolean>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

export interface WebhookDeliveryAttemptsTable {
  id: Generated<bigint>;
  delivery_id: string;
  attempt: number;
  trigger: 'scheduled' | 'replay';
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  succeeded: boolean;
}

export interface DigestSendsTable {
  tenant_id: string;
  user_id: string;
  cadence: 'daily' | 'weekly';
  period_start: string;
  sent_at: Timestamp;
}

export interface ExportLogTable {
  id: Generated<string>;
  tenant_id: string;
  user_id: string | null;
  kind: string;
  filters: Json<Record<string, unknown>>;
  row_count: number;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: Buffer;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface InvitesTable {
  id: Generated<string>;
  tenant_id: string;
  email: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  token_hash: Buffer;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_by: string | null;
  revoked_at: NullableTimestamp;
}

export interface StoredResponsesTable {
  id: string;
  tenant_id: string;
  call_id: string;
  conversation: Json<unknown[]>;
  response: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}

/** Hourly ledger rollups for the insights (migrations 025, 025c): one bucket per tenant, UTC hour and project. */
export interface InsightsLedgerHourlyTable {
  tenant_id: string;
  hour: Timestamp;
  project_id: string;
  burn_micros: bigint;
  compared_burn_micros: bigint;
  baseline_micros: bigint;
  actual_micros: bigint;
  calls: bigint;
  escalations: bigint;
  attempts: Generated<bigint>;
  tokens: Generated<bigint>;
}

export interface InsightsCallsDailyTable {
  tenant_id: string;
  day: ColumnType<string, string, string>;
  project_id: string;
  task_family: string;
  model_class: string;
  escalated: boolean;
  first_attempt: boolean;
  attempts: bigint;
  tokens: bigint;
  debited_micros: bigint;
}

export interface InsightsPathsDailyTable {
  tenant_id: string;
  day: ColumnType<string, string, string>;
  provider_key: string;
  model_id: string;
  region: string;
  attempts: bigint;
}

export interface InsightsRollupStateTable {
  tenant_id: string;
  last_seq: Generated<bigint>;
  updated_at: Generated<Date>;
}

export interface LedgerCheckpointsTable {
  id: Generated<string>;
  tenant_id: string;
  sequence: bigint;
  seal_hash: string;
  balance_micros: bigint;
  chain_digest: string;
  key_id: string;
  signature: string;
  created_at: Date;
}

export interface DB {
  stored_responses: StoredResponsesTable;
  tenants: TenantsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  connector_heartbeats: ConnectorHeartbeatsTable;
  device_authorizations: DeviceAuthorizationsTable;
  personal_access_tokens: PersonalAccessTokensTable;
  security_audit: SecurityAuditTable;
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  wallets: WalletsTable;
  ledger_entries: LedgerEntriesTable;
  reservations: ReservationsTable;
  project_spend: ProjectSpendTable;
  call_logs: CallLogsTable;
  learning_outbox: LearningOutboxTable;
  learning_outbox_events: LearningOutboxEventsView;
  payment_methods: PaymentMethodsTable;
  topups: TopupsTable;
  processor_events: ProcessorEventsTable;
  invoices: InvoicesTable;
  layer3_rulesets: Layer3RulesetsTable;
  layer3_rule_changes: Layer3RuleChangesTable;
  event_outbox: EventOutboxTable;
  webhooks: WebhooksTable;
  notification_settings: NotificationSettingsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  digest_sends: DigestSendsTable;
  insights_ledger_hourly: InsightsLedgerHourlyTable;
  insights_rollup_state: InsightsRollupStateTable;
  insights_calls_daily: InsightsCallsDailyTable;
  insights_paths_daily: InsightsPathsDailyTable;
  export_log: ExportLogTable;
  ledger_checkpoints: LedgerCheckpointsTable;
  password_resets: PasswordResetsTable;
  invites: InvitesTable;
}
