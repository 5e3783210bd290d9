import { vi } from 'vitest';
import { configureApi } from '../api/client';

export interface Call {
  method: string;
  path: string;
  search: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: Call) => { status: number; body?: unknown; headers?: Record<string, string> };

export const API_ORIGIN = 'http://api.test';

/**
 * Routes the app's real transport (Amplify REST over fetch) to in-test handlers keyed by
 * "METHOD /path/". Unknown routes answer 404.
 */
export function fakeApi(routes: Record<string, Handler>) {
  configureApi(API_ORIGIN);
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const method = (init?.method ?? 'GET').toUpperCase();
    const call: Call = {
      method,
      path: url.pathname,
      search: url.search,
      headers,
      // JSON as its value; raw bytes (a file's part) as the Blob sent.
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body instanceof Blob ? init.body : undefined,
    };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    const reply = handler ? handler(call) : { status: 404, body: { message: 'Not found' } };
    // No body at all without one: a 204 may not carry even an empty one.
    const text = reply.body === undefined ? null : JSON.stringify(reply.body);
    return new Response(text, {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...(reply.headers ?? {}) },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
