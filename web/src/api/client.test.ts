import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { api, ApiError, setAccessToken, setTokenHooks } from './client';

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
  setTokenHooks({});
});

describe('API client (aws-amplify REST transport)', () => {
  it('sends JSON with the bearer token and drops empty query values', async () => {
    const { calls } = fakeApi({ 'GET /api/users/': () => ({ status: 200, body: { data: [], pagination: { count: 0 } } }) });
    setAccessToken('abc');
    const reply = await api.get<{ data: unknown[] }>('/api/users/', { query: { page: 1, search: '', role: undefined } });
    expect(reply.data).toEqual([]);
    expect(calls[0].headers.authorization).toBe('Bearer abc');
    expect(calls[0].search).toBe('?page=1');
  });

  it('rejects with the server message and field errors', async () => {
    fakeApi({
      'POST /api/users/': () => ({ status: 409, body: { message: 'Duplicate', errors: { email: ['Taken'] } } }),
    });
    const error = await api.post('/api/users/', { email: 'a@b.c' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'Duplicate', errors: { email: ['Taken'] } });
  });

  it('falls back to "Something went wrong" without a body', async () => {
    fakeApi({ 'GET /x/': () => ({ status: 500 }) });
    await expect(api.get('/x/')).rejects.toMatchObject({ status: 500, message: 'Something went wrong' });
  });

  it('does not retry a 429', async () => {
    const { calls } = fakeApi({ 'POST /auth/token/': () => ({ status: 429, body: { message: 'Slow down' } }) });
    await expect(api.post('/auth/token/', {}, { anonymous: true })).rejects.toMatchObject({ status: 429 });
    expect(calls).toHaveLength(1);
  });

  it('sends a body with DELETE', async () => {
    const { calls } = fakeApi({ 'DELETE /api/users/': () => ({ status: 200, body: { message: 'Deleted' } }) });
    await api.del('/api/users/', { user_ids: ['a', 'b'] });
    expect(calls[0].body).toEqual({ user_ids: ['a', 'b'] });
  });

  it('refreshes once on 401 and retries, or reports the session lost', async () => {
    let first = true;
    const { calls } = fakeApi({
      'GET /api/users/me/': (call) => {
        if (first) {
          first = false;
          return { status: 401, body: { message: 'expired' } };
        }
        return { status: 200, body: { data: { token: call.headers.authorization } } };
      },
    });
    setAccessToken('old');
    const refresh = vi.fn(async () => {
      setAccessToken('new');
      return true;
    });
    const onUnauthorized = vi.fn();
    setTokenHooks({ refresh, onUnauthorized });
    const reply = await api.get<{ data: { token: string } }>('/api/users/me/');
    expect(reply.data.token).toBe('Bearer new');
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(calls).toHaveLength(2);

    first = true;
    setTokenHooks({ refresh: async () => false, onUnauthorized });
    await expect(api.get('/api/users/me/')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('sends raw bytes as octet-stream with the token, refreshing once on 401', async () => {
    let first = true;
    const { calls } = fakeApi({
      'PUT /api/settings/data-sources/imports/i1/parts/0/': (call) => {
        if (first) {
          first = false;
          return { status: 401, body: { message: 'expired' } };
        }
        return { status: 200, body: { data: { token: call.headers.authorization } } };
      },
      'PUT /api/settings/data-sources/imports/i1/parts/5/': () => ({ status: 400, body: { message: 'Send part 1 next', errors: { n: ['not the next part'] } } }),
    });
    setAccessToken('old');
    setTokenHooks({
      refresh: async () => {
        setAccessToken('new');
        return true;
      },
    });
    const part = new Blob([new Uint8Array(1000)]);
    const reply = await api.putBytes<{ data: { token: string } }>('/api/settings/data-sources/imports/i1/parts/0/', part);
    expect(reply.data.token).toBe('Bearer new');
    expect(calls).toHaveLength(2);
    expect(calls[1].headers['content-type']).toBe('application/octet-stream');
    expect(calls[1].body).toBe(part);
    await expect(api.putBytes('/api/settings/data-sources/imports/i1/parts/5/', part)).rejects.toMatchObject({ status: 400, message: 'Send part 1 next', errors: { n: ['not the next part'] } });
  });

  it('downloads a file with its Content-Disposition name', async () => {
    fakeApi({
      'GET /api/users/export/': () => ({
        status: 200,
        body: 'a,b',
        headers: { 'content-disposition': 'attachment; filename="users.csv"' },
      }),
    });
    setAccessToken('abc');
    const file = await api.download('/api/users/export/', { format: 'csv' });
    expect(file.filename).toBe('users.csv');
    expect(await file.blob.text()).toBe('"a,b"');
  });
});
