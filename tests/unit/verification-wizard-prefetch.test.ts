import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenSource } from '../../src/services/http.ts';
import { loadTypeForm, prefetchTypeForm } from '../../src/services/verifications.service.ts';

/**
 * Issue 29: New hovered or focused starts the wizard's first form loading; the wizard's next open
 * takes that load instead of asking again, once. Only fetch and the validator module are replaced.
 */
vi.mock('../../src/services/monitoring.ts', () => ({ reportError: () => undefined }));
vi.mock('../../src/services/runtime-config.ts', () => ({
  runtimeConfig: () => ({ apiBase: 'http://portal.test/api', entityVerificationBase: 'http://portal.test/ev', identityBase: 'http://portal.test/identity' }),
}));
vi.mock('../../src/services/form-validators.service.ts', () => ({ loadFormValidators: async () => ({}) }));

const fetchMock = vi.fn<typeof fetch>();
const definition = { jsonSchema: '{"title":"type"}', uiSchema: '{}', data: '{}', validatorModule: '/form-validator/a.js' };
const ok = () => new Response(JSON.stringify(definition), { status: 200, headers: { 'content-type': 'application/json' } });
const urlOf = (input: Parameters<typeof fetch>[0]) => (input instanceof Request ? input.url : String(input));
const formRequests = () => fetchMock.mock.calls.filter(([input]) => urlOf(input) === 'http://portal.test/ev/individual/form').length;

beforeAll(() => {
  vi.stubGlobal('fetch', fetchMock);
  setAccessTokenSource(() => 'token');
});
beforeEach(async () => {
  // Whatever an earlier test left prefetched is taken, so each starts with none.
  fetchMock.mockImplementation(async () => ok());
  await loadTypeForm().catch(() => undefined);
  fetchMock.mockReset();
});

describe('the wizard form prefetch (issue 29)', () => {
  it('an open after a prefetch takes it: one request for both', async () => {
    fetchMock.mockImplementation(async () => ok());
    prefetchTypeForm();
    prefetchTypeForm(); // hovered again: still one load
    await vi.waitFor(() => expect(formRequests()).toBe(1));
    const form = await loadTypeForm();
    expect(form.schema).toEqual({ title: 'type' });
    expect(formRequests()).toBe(1);
  });

  it('the prefetch is used once: the next open asks again', async () => {
    fetchMock.mockImplementation(async () => ok());
    prefetchTypeForm();
    await loadTypeForm();
    await loadTypeForm();
    expect(formRequests()).toBe(2);
  });

  it('a failed prefetch is dropped, so the open asks afresh and succeeds', async () => {
    fetchMock.mockImplementationOnce(async () => new Response('{}', { status: 503 }));
    prefetchTypeForm();
    await vi.waitFor(() => expect(formRequests()).toBe(1));
    // Let the failure settle and be dropped before the wizard opens.
    await new Promise((resolve) => setTimeout(resolve, 0));
    fetchMock.mockImplementation(async () => ok());
    await expect(loadTypeForm()).resolves.toMatchObject({ validatorModule: '/form-validator/a.js' });
    expect(formRequests()).toBe(2);
  });
});
