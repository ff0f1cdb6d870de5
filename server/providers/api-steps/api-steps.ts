import type { ApplicationDetail } from '../../../src/schemas/application-detail.schema.ts';
import type { TriggerApiResponse } from '../../../src/schemas/application-actions.schema.ts';
import { sandboxApiSteps } from './sandbox-api-steps.ts';

/**
 * The tenant's API steps (AM §2 API-trigger items, §7 POST /application/triggerapi): the outside
 * systems an application is sent to once it is complete. A step answers { ErrorNo, Message }
 * (0 is success); a step that cannot be reached throws, and the action then changes nothing.
 */
export interface ApiSteps {
  run(step: { tenantId: string; apiName: string; application: ApplicationDetail }): Promise<TriggerApiResponse>;
}

/** Only the sandbox exists in this deployment; a real tenant integration implements ApiSteps. */
export const apiStepsFor = (): ApiSteps => sandboxApiSteps;
