import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../src/services/monitoring.ts', () => ({ reportError: () => undefined }));
vi.mock('../../src/services/runtime-config.ts', () => ({ runtimeConfig: () => ({ apiBase: 'http://portal.test/api' }) }));

const { inviteUser } = await import('../../src/services/users.service.ts');
const { HttpError, setAccessTokenSource } = await import('../../src/services/http.ts');

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const request = { firstName: 'Ivy', lastName: 'x'.repeat(300), email: 'ivy@example.com', MobileNumber: '0412345678', RoleId: 1 };

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  setAccessTokenSource(() => 'token-123');
});
afterEach(() => vi.unstubAllGlobals());

/** Issue 39 point 12, SUV §8: "otherwise the server Message is shown"; only no answer gives the generic text. */
describe('invite refused by the server', () => {
  it('a 400 with the server’s message answers that message, so the modal shows it', async () => {
    fetchMock.mockResolvedValue(json({ statusCode: 400, error: 'Bad Request', message: 'lastName: Too big: expected string to have <=100 characters' }, 400));
    expect(await inviteUser(request)).toEqual({ ErrorNo: 400, Message: 'lastName: Too big: expected string to have <=100 characters', UserGuid: '' });
  });

  it('a 500 or a 401 still throws (the generic text, or the session path)', async () => {
    fetchMock.mockResolvedValue(json({ statusCode: 500, error: 'Internal Server Error', message: 'Something failed (id 1).' }, 500));
    await expect(inviteUser(request)).rejects.toBeInstanceOf(HttpError);
    fetchMock.mockResolvedValue(json({ statusCode: 401, error: 'Unauthorized', message: 'no' }, 401));
    await expect(inviteUser(request)).rejects.toBeInstanceOf(HttpError);
  });
});

describe('invite length limits (issue 39 point 12)', () => {
  it('names up to 100 characters pass; one more is refused, naming the field (the limit the modal’s fields stop at)', async () => {
    const { InviteUserRequestSchema } = await import('../../src/schemas/users.schema.ts');
    const base = { firstName: 'Ivy', lastName: 'Invitee', email: 'ivy@example.com', MobileNumber: '0412345678', RoleId: 1 };
    expect(InviteUserRequestSchema.safeParse({ ...base, lastName: 'x'.repeat(100) }).success).toBe(true);
    expect(InviteUserRequestSchema.safeParse({ ...base, lastName: 'x'.repeat(101) }).error?.issues[0]?.path).toEqual(['lastName']);
    expect(InviteUserRequestSchema.safeParse({ ...base, firstName: 'x'.repeat(101) }).error?.issues[0]?.path).toEqual(['firstName']);
  });
});
