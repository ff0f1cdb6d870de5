import { describe, expect, it } from 'vitest';
import { explainedRefusal } from '../../src/services/explained-refusal.ts';
import { HttpError } from '../../src/services/http.ts';

const refusedWith = (status: number, body: unknown) => Promise.reject(new HttpError(status, '/api/x', body));

describe('an action the server refused with a reason', () => {
  it('passes an answer through', async () => {
    await expect(explainedRefusal(Promise.resolve({ Success: true, Message: '' }))).resolves.toEqual({
      Success: true,
      Message: '',
    });
  });

  it("shows the server's reason for a 409 or 400 (its error body or an ActionResult)", async () => {
    const conflict = {
      statusCode: 409,
      error: 'Conflict',
      message: 'Only a locked application can be unlocked.',
    };
    await expect(explainedRefusal(refusedWith(409, conflict))).resolves.toEqual({
      Success: false,
      Message: 'Only a locked application can be unlocked.',
    });
    await expect(
      explainedRefusal(
        refusedWith(400, { Success: false, Message: 'The maximum of 20 labels has been reached.' }),
      ),
    ).resolves.toEqual({
      Success: false,
      Message: 'The maximum of 20 labels has been reached.',
    });
  });

  it('still throws a 401 (the session ends), a 5xx and a 4xx without a reason', async () => {
    const reason = { statusCode: 401, error: 'Unauthorized', message: 'Sign in again.' };
    await expect(explainedRefusal(refusedWith(401, reason))).rejects.toBeInstanceOf(HttpError);
    await expect(explainedRefusal(refusedWith(500, { ...reason, statusCode: 500 }))).rejects.toBeInstanceOf(
      HttpError,
    );
    await expect(explainedRefusal(refusedWith(404, undefined))).rejects.toBeInstanceOf(HttpError);
    await expect(explainedRefusal(Promise.reject(new TypeError('offline')))).rejects.toBeInstanceOf(
      TypeError,
    );
  });
});
