// The one HTTP transport of the app: aws-amplify's REST client, configured from the runtime
// config.json. Everything else calls `api.get/post/put/del` from here.
import type { DocumentType } from '@aws-amplify/core/internals/utils';
import type * as AmplifyTransport from './amplify-transport';
const FALLBACK_MESSAGE = 'Something went wrong';

/** A failed request: the server's status, message and per-field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string[]>;
  readonly body: unknown;

  constructor(status: number, message: string, errors: Record<string, string[]> = {}, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Send without the bearer token and never try a refresh (sign-in, verify, refresh). */
  anonymous?: boolean;
}

interface TokenHooks {
  /**
   * Called once on a 401 of an authenticated request: true when renewed (retry), false when the
   * server refused the refresh (sign out); throws when there was no answer (the session is kept).
   */
  refresh?: () => Promise<boolean>;
  /** Called when the session cannot be recovered. */
  onUnauthorized?: () => void;
}

let accessToken: string | null = null;
let hooks: TokenHooks = {};
let apiEndpoint = '';

export function configureApi(endpoint: string): void {
  apiEndpoint = endpoint;
}

type Transport = typeof AmplifyTransport;
let transport: Transport | null = null;
let loading: Promise<Transport> | null = null;
let configuredEndpoint: string | null = null;

/**
 * Loads aws-amplify's REST client; requests call it themselves when it is not there yet. The tests
 * load it first, so that a request leaves at once, as it did when the client was in the entry.
 */
export function loadTransport(): Promise<Transport> {
  loading ??= import('./amplify-transport').then(
    (module) => (transport = module),
    (error: unknown) => {
      // A chunk that did not arrive is asked again with the next request.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Amplify configured for the current endpoint. */
function configured(amplify: Transport): Transport {
  if (configuredEndpoint !== apiEndpoint) {
    amplify.configureAmplify(apiEndpoint);
    configuredEndpoint = apiEndpoint;
  }
  return amplify;
}

/**
 * An address the server handed out (a download link): a path is on the API's server, an absolute
 * URL (a presigned S3 link) is kept as it is.
 */
export function resolveApiUrl(url: string): string {
  const origin = typeof window !== 'undefined' ? window.location.origin : undefined;
  try {
    return new URL(url, apiEndpoint || origin).href;
  } catch {
    return url;
  }
}

export function setAccessToken(token: string | null): void {
  accessToken = token;
}

export function getAccessToken(): string | null {
  return accessToken;
}

export function setTokenHooks(next: TokenHooks): void {
  hooks = next;
}

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const found = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : null;
}

function toQueryParams(query?: Query): Record<string, string> | undefined {
  if (!query) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = String(value);
  }
  return out;
}

function headersFor(options: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (!options.anonymous && accessToken) headers.Authorization = `Bearer ${accessToken}`;
  const xsrf = readCookie('XSRF-TOKEN');
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  return headers;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RawResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: { text(): Promise<string>; blob(): Promise<Blob> };
}

function parseJson(text: string | undefined | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Turns whatever Amplify threw into an ApiError carrying the server's body when there is one. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const response = (error as { response?: { statusCode?: number; body?: string } } | null)?.response;
  if (response && typeof response.statusCode === 'number') {
    const body = parseJson(response.body);
    const record = (body && typeof body === 'object' ? body : {}) as { message?: unknown; errors?: unknown };
    const message = typeof record.message === 'string' && record.message ? record.message : FALLBACK_MESSAGE;
    const errors =
      record.errors && typeof record.errors === 'object' ? (record.errors as Record<string, string[]>) : {};
    return new ApiError(response.statusCode, message, errors, body);
  }
  return new ApiError(0, FALLBACK_MESSAGE, {}, null);
}

/** A request of this module: `bytes` goes as it is (`application/octet-stream`) instead of JSON. */
interface SendOptions extends RequestOptions {
  bytes?: Blob;
}

/**
 * Raw bytes (a file's part) with `fetch` itself, to the address Amplify would use: its REST client
 * sends JSON or form data only. Rejects like Amplify does (an `ApiError` past 2xx).
 */
async function sendBytes(method: Method, path: string, options: RequestOptions, bytes: Blob): Promise<RawResponse> {
  const url = new URL(`${apiEndpoint}${path}`, typeof window !== 'undefined' ? window.location.origin : undefined);
  for (const [key, value] of Object.entries(toQueryParams(options.query) ?? {})) url.searchParams.set(key, value);
  const response = await fetch(url.href, {
    method,
    headers: { ...headersFor(options), 'Content-Type': 'application/octet-stream' },
    body: bytes,
    credentials: 'same-origin',
  });
  const text = await response.text();
  if (!response.ok) throw toApiError({ response: { statusCode: response.status, body: text } });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { statusCode: response.status, headers, body: { text: async () => text, blob: async () => new Blob([text]) } };
}

async function send(method: Method, path: string, options: SendOptions): Promise<RawResponse> {
  if (options.bytes) return sendBytes(method, path, options, options.bytes);
  const { API_NAME, del, get, post, put } = configured(transport ?? (await loadTransport()));
  const input = {
    apiName: API_NAME,
    path,
    options: {
      headers: headersFor(options),
      queryParams: toQueryParams(options.query),
      ...(options.body !== undefined ? { body: options.body as DocumentType } : {}),
    },
  };
  const operation =
    method === 'GET' ? get(input) : method === 'POST' ? post(input) : method === 'PUT' ? put(input) : del(input);
  return (await operation.response) as RawResponse;
}

async function sendWithSession(method: Method, path: string, options: SendOptions): Promise<RawResponse> {
  try {
    return await send(method, path, options);
  } catch (raw) {
    const error = toApiError(raw);
    if (error.status !== 401 || options.anonymous || !accessToken) throw error;
    let refreshed: boolean;
    try {
      refreshed = hooks.refresh ? await hooks.refresh() : false;
    } catch {
      // The refresh did not get an answer (offline, aborted): keep the session, report the 401.
      throw error;
    }
    if (!refreshed) {
      hooks.onUnauthorized?.();
      throw error;
    }
    try {
      return await send(method, path, options);
    } catch (again) {
      const retryError = toApiError(again);
      if (retryError.status === 401) hooks.onUnauthorized?.();
      throw retryError;
    }
  }
}

async function request<T>(method: Method, path: string, options: SendOptions = {}): Promise<T> {
  const response = await sendWithSession(method, path, options);
  const text = await response.body.text();
  return parseJson(text) as T;
}

export interface Download {
  blob: Blob;
  filename: string | null;
  /** The HTTP status: 200 for a file; 202 when the server queued the export as a job (JSON body). */
  status: number;
}

function filenameFrom(disposition: string | undefined): string | null {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : null;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body: body ?? {} }),
  del: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('DELETE', path, { ...options, body }),
  /** Raw bytes (a part of a file being uploaded) as `application/octet-stream`; a JSON reply. */
  putBytes: <T>(path: string, bytes: Blob, options?: RequestOptions) => request<T>('PUT', path, { ...options, bytes }),
  /** A file reply (exports): the bytes, the name from Content-Disposition and the status. */
  async download(path: string, query?: Query): Promise<Download> {
    const response = await sendWithSession('GET', path, { query });
    const blob = await response.body.blob();
    return { blob, filename: filenameFrom(response.headers['content-disposition']), status: response.statusCode };
  },
};
