// The audit trail's shapes, from the generated OpenAPI schema.
import type { components, operations } from '../../../api/schema';

type Schemas = components['schemas'];

/** One time data left the system: who took it, how, the definition, the machines it covers, to whom. */
export type DataExit = Schemas['ExitDto'];

/** How it left: an export downloaded, a background export, a generated report downloaded, a report mailed. */
export type ExitKind = Schemas['ExitKind'];

export const EXIT_KINDS = ['export', 'export_job', 'report_download', 'mail'] as const satisfies readonly ExitKind[];

/** `GET /api/audit/exports/`'s query. */
export type ExitQuery = NonNullable<operations['list_exits']['parameters']['query']>;
