import { ActionResultSchema, type ActionResult } from '../schemas/application-actions.schema.ts';
import { ApiErrorSchema } from '../schemas/errors.schema.ts';
import { HttpError } from './http.ts';

/**
 * An action the server refused with a reason (a 4xx other than 401 whose body is an ActionResult,
 * or the server's error with its message: 409 for a state the rules do not allow, 400 for a bad
 * value) comes back as `{ Success: false, Message }`, so the modal shows the reason (AM §8 add-label
 * error) instead of the generic failure text. Anything else throws the wrapper's typed errors.
 */
export async function explainedRefusal(call: Promise<ActionResult>): Promise<ActionResult> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof HttpError && error.status >= 400 && error.status < 500 && error.status !== 401) {
      const result = ActionResultSchema.safeParse(error.body);
      if (result.success) return result.data;
      const refusal = ApiErrorSchema.safeParse(error.body);
      if (refusal.success) return { Success: false, Message: refusal.data.message };
    }
    throw error;
  }
}
