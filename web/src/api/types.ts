// Response types of the API, inferred from the API's own zod schemas (type-only imports: nothing
// of the server reaches the bundle).
import type { z } from 'zod';
import type { overview, savingsSeries, usage, activityList } from '../../../src/http/api/insights/schemas.ts';
import type { summary } from '../../../src/http/api/insights/summary.route.ts';
import type { audit } from '../../../src/http/api/insights/audit.route.ts';
import type { wallet, topupResult } from '../../../src/http/api/wallet/schemas.ts';
import type { customerEntry, verdict } from '../../../src/http/api/ledger/schemas.ts';
import type { project } from '../../../src/http/api/projects/schemas.ts';
import type { profile } from '../../../src/http/api/users/schemas.ts';
import type { invoice } from '../../../src/http/api/invoices/invoices.route.ts';
import type { tenant } from '../../../src/http/api/tenant/schemas.ts';
import type { loginResult } from '../../../src/http/api/auth/schemas.ts';
import type { copyPasteAnswer } from '../../../src/http/api/copy-paste/schemas.ts';
import type { catalogue, toolsList } from '../../../src/http/api/catalogue/schemas.ts';
import type { keyRecord } from '../../../src/http/api/keys/keys.route.ts';
import type { importSummary, report as advisoryReport } from '../../../src/http/api/advisory/schemas.ts';

type Versioned<T> = T & { insightsEngineVersion: string };
export type Page<T> = { items: T[]; nextCursor: string | null };

export type Overview = Versioned<z.output<typeof overview>>;
export type SavingsSeries = Versioned<z.output<typeof savingsSeries>>;
export type Usage = Versioned<z.output<typeof usage>>;
export type ActivityItem = z.output<typeof activityList>[number];
export type Activity = Versioned<{ items: ActivityItem[] }>;
export type Summary = Versioned<z.output<typeof summary>>;
export type Audit = Versioned<z.output<typeof audit>>;
export type Wallet = z.output<typeof wallet>;
export type TopupResult = z.output<typeof topupResult>;
export type LedgerEntry = z.output<typeof customerEntry>;
export type Verdict = z.output<typeof verdict>;
export type Project = z.output<typeof project>;
export type Profile = z.output<typeof profile>;
export type LoginResult = z.output<typeof loginResult>;
export type Baseline = { providerKey: string | null; brand: string | null };
export type Invoice = z.output<typeof invoice>;
export type Tenant = z.output<typeof tenant>;
export type CopyPasteAnswer = z.output<typeof copyPasteAnswer>;
export type Catalogue = z.output<typeof catalogue>;
export type ToolItem = z.output<typeof toolsList>['items'][number];
export type KeyRecord = z.output<typeof keyRecord>;
export type CreatedKey = { key: string; record: KeyRecord };
export type AdvisoryImport = z.output<typeof importSummary>;
export type AdvisoryReport = z.output<typeof advisoryReport>;
