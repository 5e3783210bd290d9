// The history import (issue 49, docs/history-import.md): the saved mappings, the imports, the file
// sent in parts, its preview and its booking, all under /api/settings/data-sources/.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectData, expectReply } from '../../../api/replies';
import type { BookBody, HistoryImport, HistoryImportBody, HistoryMapping, HistoryMappingBody, ItemReply } from '../../../api/types';
import { bytesBefore, isRunning, partCount, partOf } from '../import-logic';
import { dataSourceKeys } from './keys';

const base = '/api/settings/data-sources/';
const mappingsPath = `${base}mappings/`;
const importsPath = `${base}imports/`;
const mappingPath = (id: string) => `${mappingsPath}${encodeURIComponent(id)}/`;
const importPath = (id: string) => `${importsPath}${encodeURIComponent(id)}/`;
const partPath = (id: string, n: number) => `${importPath(id)}parts/${n}/`;

/** How often an import being read or booked is asked again, and the list while one is. */
export const IMPORT_POLL_MS = 2_000;
export const LIST_POLL_MS = 5_000;

// --- Mappings -----------------------------------------------------------------------------------

/** The saved mappings, by name. */
export function useHistoryMappings(enabled = true) {
  return useQuery({
    queryKey: dataSourceKeys.mappings,
    queryFn: async () => expectData(await api.get<{ data: HistoryMapping[] }>(mappingsPath)),
    enabled,
    meta: { silent: true },
  });
}

/** Creates a mapping, or saves one read at `version` (409 when someone changed it since). */
export function useSaveHistoryMapping(id: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: HistoryMappingBody) =>
      expectReply(id ? await api.put<ItemReply<HistoryMapping>>(mappingPath(id), body) : await api.post<ItemReply<HistoryMapping>>(mappingsPath, body)),
    onSettled: () => client.invalidateQueries({ queryKey: dataSourceKeys.mappings }),
  });
}

export function useDeleteHistoryMapping() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del(mappingPath(id)),
    onSettled: () => client.invalidateQueries({ queryKey: dataSourceKeys.mappings }),
  });
}

// --- Imports ------------------------------------------------------------------------------------

/** The imports, newest first (without their previews); read again while one is being read or booked. */
export function useHistoryImports(enabled = true) {
  return useQuery({
    queryKey: dataSourceKeys.imports,
    queryFn: async () => expectData(await api.get<{ data: HistoryImport[] }>(importsPath)),
    enabled,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.some((item) => isRunning(item.status)) ? LIST_POLL_MS : false),
    meta: { silent: true },
  });
}

/** One import with its preview once read; asked again while it is being read or booked. */
export function useHistoryImport(id: string | null) {
  return useQuery({
    queryKey: dataSourceKeys.import(id ?? ''),
    queryFn: async () => expectData(await api.get<{ data: HistoryImport }>(importPath(id ?? ''))),
    enabled: Boolean(id),
    staleTime: 0,
    refetchInterval: (query) => (isRunning(query.state.data?.status) ? IMPORT_POLL_MS : false),
    meta: { silent: true },
  });
}

/** An import's new state (a reply's), on its own query and in the list. */
function useTakeImport() {
  const client = useQueryClient();
  return (item: HistoryImport) => {
    const known = client.getQueryData<HistoryImport>(dataSourceKeys.import(item.id));
    // A reply without the preview keeps the one read (a booking import still shows what it books).
    client.setQueryData(dataSourceKeys.import(item.id), { ...item, preview: item.preview ?? known?.preview ?? null });
    return client.invalidateQueries({ queryKey: dataSourceKeys.imports, exact: true });
  };
}

/** The upload was stopped on purpose (between two parts). */
export class UploadStopped extends Error {
  constructor() {
    super('The upload was stopped');
    this.name = 'UploadStopped';
  }
}

export interface UploadRequest {
  file: File;
  /** A new import read this way; or an unfinished one to go on with, from its part `from`. */
  start: { mappingId: string } | { id: string; from: number };
  /** The bytes the server has, after each part. */
  onProgress: (sent: number) => void;
  /** Stops between two parts. */
  signal?: AbortSignal;
  /** Once the import exists (before its first part). */
  onCreated?: (item: HistoryImport) => void;
}

/**
 * Creates the import (or goes on with an unfinished one), sends the file in parts of 5 MiB in
 * order (`PUT …/parts/{n}/`, raw bytes), then asks for its preview; resolves with the import being
 * read (`previewing`).
 */
export async function uploadImport({ file, start, onProgress, signal, onCreated }: UploadRequest): Promise<HistoryImport> {
  let id: string;
  let from: number;
  if ('mappingId' in start) {
    const body: HistoryImportBody = { file_name: file.name, mapping_id: start.mappingId };
    const created = expectData(await api.post<ItemReply<HistoryImport>>(importsPath, body));
    onCreated?.(created);
    id = created.id;
    from = 0;
  } else {
    id = start.id;
    from = start.from;
  }
  const parts = partCount(file.size);
  onProgress(bytesBefore(from, file.size));
  for (let n = from; n < parts; n += 1) {
    if (signal?.aborted) throw new UploadStopped();
    await api.putBytes<{ data: HistoryImport }>(partPath(id, n), partOf(file, n));
    onProgress(bytesBefore(n + 1, file.size));
  }
  if (signal?.aborted) throw new UploadStopped();
  return expectData(await api.post<ItemReply<HistoryImport>>(`${importPath(id)}preview/`, {}));
}

/** `uploadImport`, with the list and the import's own query told. */
export function useUploadImport() {
  const client = useQueryClient();
  const take = useTakeImport();
  return useMutation({
    mutationFn: (request: UploadRequest) => uploadImport(request),
    onSuccess: take,
    // A stopped or failed upload leaves an unfinished import in the list.
    onError: () => client.invalidateQueries({ queryKey: dataSourceKeys.imports, exact: true }),
  });
}

/** Books the previewed sales (409 when not previewed, or rows in error not skipped). */
export function useBookImport() {
  const take = useTakeImport();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: BookBody }) => expectData(await api.post<ItemReply<HistoryImport>>(`${importPath(id)}book/`, body)),
    onSuccess: take,
  });
}

/** Deletes an import's file parts; what it booked stays booked. */
export function useDeleteHistoryImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del(importPath(id)),
    onSuccess: (_reply, id) => client.removeQueries({ queryKey: dataSourceKeys.import(id), exact: true }),
    onSettled: () => client.invalidateQueries({ queryKey: dataSourceKeys.imports, exact: true }),
  });
}
