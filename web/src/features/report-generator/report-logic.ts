// What the report generator computes without the server: when the reports list polls, which
// actions a user sees, and the form's values to the request body. A report's definition (its
// module's filters and parameters) is shared with the query scheduler: see
// `components/report-definition/definition-logic.ts`.
import type { Report, ReportStatus, ReportTemplate, ReportTemplateForm, ReportVisibility } from '../../api/types';
import { definitionBody, emptyDefinition, type DefinitionValues } from '../../components/report-definition/definition-logic';

// --- The reports list -------------------------------------------------------------------------

/** How often the list asks again while a report is being prepared. */
export const POLL_MS = 2000;

/** Queued or running: the file is not there yet and the list follows it. */
export function isPreparing(status: ReportStatus): boolean {
  return status === 'queued' || status === 'running';
}

/** The list's refetch interval: every 2 s while one of its reports is being prepared, else none. */
export function pollInterval(reports: readonly Pick<Report, 'status'>[] | undefined): number | false {
  return reports?.some((report) => isPreparing(report.status)) ? POLL_MS : false;
}

/** The report generator's permission parts (see `auth/permissions.ts`). */
export type GeneratorPart = 'reports_list' | 'templates_list' | 'run' | 'new' | 'delete_report' | 'delete_template' | 'edit_template';
export type Allowed = (part: GeneratorPart) => boolean;

/**
 * A report's actions: the file once done (offered but refused, with the reason, while it covers
 * machines beyond the caller's access), archive (not while it is prepared) or restore, delete with
 * its key.
 */
export function reportActions(allowed: Allowed, report: Pick<Report, 'status' | 'archived'>) {
  return {
    download: report.status === 'done',
    archive: !report.archived && !isPreparing(report.status),
    restore: report.archived,
    delete: allowed('delete_report'),
  };
}

/** Why a finished report's file may not be downloaded now (it covers machines beyond the caller's access), or null. */
export function downloadRefusal(report: Pick<Report, 'status' | 'available' | 'unavailable_reason'>, fallback: string): string | null {
  if (report.status !== 'done' || report.available) return null;
  return report.unavailable_reason || fallback;
}

/**
 * A template's actions: each with its key; edit and delete only where the server lets the caller
 * change it (their own); on anyone else's, copy ("save as") where the server lets them.
 */
export function templateActions(allowed: Allowed, template: Pick<ReportTemplate, 'editable' | 'copyable'>) {
  return {
    run: allowed('run'),
    edit: allowed('edit_template') && template.editable,
    delete: allowed('delete_template') && template.editable,
    copy: template.copyable && !template.editable,
  };
}

// --- The form ---------------------------------------------------------------------------------

export interface ReportFormValues extends DefinitionValues {
  name: string;
  visibility: ReportVisibility;
}

export function emptyReportValues(): ReportFormValues {
  return { name: '', visibility: 'private', ...emptyDefinition() };
}

export function valuesFromTemplate(template: ReportTemplate): ReportFormValues {
  return {
    name: template.name,
    module: template.module,
    params: { ...template.params },
    format: template.format,
    graph: template.graph,
    columns: [...template.columns],
    visibility: template.visibility,
  };
}

/** `POST generate/` and `POST preview/` (a `ReportTemplateForm` without `version`): `name` is the report's. */
export type GenerateInput = ReturnType<typeof definitionBody> & Pick<ReportTemplate, 'name' | 'visibility'>;

export function toGenerateInput(values: ReportFormValues): GenerateInput {
  return { name: values.name.trim(), ...definitionBody(values), visibility: values.visibility };
}

/** `POST templates/`, or `PUT templates/{id}/` with the version read. */
export function toTemplateInput(values: ReportFormValues, version?: number): ReportTemplateForm {
  const body: ReportTemplateForm = toGenerateInput(values);
  return version === undefined ? body : { ...body, version };
}
