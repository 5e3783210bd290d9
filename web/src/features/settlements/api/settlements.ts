// Card settlements (issue 31): the reconciliation of a period, the imported files, the processors'
// column mappings and the import of a file. Its shapes are named in api/types.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { expectData, expectReply } from '../../../api/replies';
import { reportKeys, useReportData } from '../../../api/report-queries';
import type { ImportBody, ImportReply, Mapping, MappingBody, Reconciliation, SettlementImport } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';

const base = '/api/settlements/';
const reconciliationPath = `${base}reconciliation/`;
const importsPath = `${base}imports/`;
const mappingsPath = `${base}mappings/`;

export const settlementKeys = {
  all: ['settlements'] as const,
  imports: () => ['settlements', 'imports'] as const,
  mappings: () => ['settlements', 'mappings'] as const,
};

/** The period's machine-days, their totals and the payouts that settled them. */
export function useReconciliation(query: Query, enabled: boolean) {
  return useReportData<Reconciliation>(reconciliationPath, query, enabled);
}

/** The period's reconciliation as CSV or XLSX; a large file is queued as a job. */
export function exportReconciliation(format: ExportFormat, query: Query) {
  return requestExport(`${reconciliationPath}export/`, { ...query, format }, `settlements.${format}`);
}

/** The imported files, newest first. */
export function useImports(enabled: boolean) {
  return useQuery({
    queryKey: settlementKeys.imports(),
    queryFn: async () => expectData(await api.get<{ data: SettlementImport[] }>(importsPath)),
    enabled,
  });
}

/** The processors' mappings, by name. */
export function useMappings(enabled: boolean) {
  return useQuery({
    queryKey: settlementKeys.mappings(),
    queryFn: async () => expectData(await api.get<{ data: Mapping[] }>(mappingsPath)),
    enabled,
  });
}

/** An import changes the history and every reconciliation of its days. */
function useInvalidateSettlements() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: settlementKeys.all }),
      client.invalidateQueries({ queryKey: [...reportKeys.all, reconciliationPath] }),
    ]);
}

/** Imports a file, all or nothing; the same file again is `replayed` and changes nothing. */
export function useImportFile() {
  const invalidate = useInvalidateSettlements();
  return useMutation({
    mutationFn: async (body: ImportBody) => expectReply(await api.post<ImportReply>(importsPath, body)),
    onSuccess: invalidate,
  });
}

/** Creates a mapping, or saves one read at `version`. */
export function useSaveMapping(id: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: MappingBody) =>
      expectReply(id ? await api.put<{ message: string; data: Mapping }>(`${mappingsPath}${encodeURIComponent(id)}/`, body) : await api.post<{ message: string; data: Mapping }>(mappingsPath, body)),
    onSettled: () => client.invalidateQueries({ queryKey: settlementKeys.mappings() }),
  });
}

export function useDeleteMapping() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => api.del(`${mappingsPath}${encodeURIComponent(id)}/`),
    onSettled: () => client.invalidateQueries({ queryKey: settlementKeys.mappings() }),
  });
}
