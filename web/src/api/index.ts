export { api, ApiError, isApiError, configureApi, setAccessToken, getAccessToken, setTokenHooks } from './client';
export type { Query, RequestOptions, Download } from './client';
export { saveDownload } from './download';
export { authApi } from './auth';
export * from './types';
