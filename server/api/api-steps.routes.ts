import { TriggerApiRequestSchema, TriggerApiResponseSchema } from '../../src/schemas/application-actions.schema.ts';
import { badRequest } from '../http-error.ts';
import { applicationActivity } from '../db/schema.ts';
import type { ApiSteps } from '../providers/api-steps/api-steps.ts';
import { actionableDetailByGuid, enforceActionRule } from './application-action-checks.ts';
import { viewApplicationRule } from './application-detail.routes.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';
import { applicationGuidIn } from './application-write-rule.ts';

const apiStepActivity = (displayName: string, sender: string, answer: { ErrorNo: number; Message: string }) =>
  `${displayName} triggered by ${sender}: ${answer.ErrorNo === 0 ? 'succeeded' : `failed (${answer.ErrorNo})`}. ${answer.Message}`;

/**
 * AM §7 POST /application/triggerapi: runs one of the application's API steps (its ApiItems) and
 * answers the step's { ErrorNo, Message }. An ApiName that is not one of them is a 400 naming the
 * field: the portal only offers the items it was given, and which items exist is already the state
 * rule (API steps exist on completed applications only, a 409 from the rule table). The step's
 * answer, success or not, goes to the activity feed; a step that cannot be reached throws, and
 * nothing is written.
 */
export function registerApiStepRoutes({ app, db, access }: RouteContext, apiSteps: ApiSteps) {
  app.post(
    '/api/application/triggerapi',
    {
      config: { application: applicationGuidIn('body', 'ApplicationGuid') },
      preValidation: access.requireAccess(viewApplicationRule),
      schema: { body: TriggerApiRequestSchema, response: { 200: TriggerApiResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const tenant = tenantOf(request);
      const detail = await actionableDetailByGuid(db, principal, request.body.ApplicationGuid);
      enforceActionRule('triggerApi', detail, principal.claims);
      const item = detail.ApiItems.find((step) => step.ApiName === request.body.ApiName);
      if (!item) throw badRequest(`ApiName: not an API step of this application (${detail.ApiItems.map((step) => step.ApiName).join(', ') || 'none'})`);
      const answer = await apiSteps.run({ tenantId: tenant.id, apiName: item.ApiName, application: detail });
      await db.transaction(async (tx) => {
        await tx.insert(applicationActivity).values({
          tenantId: tenant.id,
          applicationId: detail.ApplicationID,
          userId: principal.userId,
          activity: apiStepActivity(item.DisplayName, principal.displayName, answer),
        });
      });
      return answer;
    },
  );
}
