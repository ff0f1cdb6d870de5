import {
  actionVerdict,
  type ActionFacts,
  type ApplicationAction,
} from '../../src/domain/application-actions.ts';
import {
  ApplicationDetailSchema,
  type ApplicationDetail,
} from '../../src/schemas/application-detail.schema.ts';
import { applicationDetailJson, findVisibleApplicationByGuid } from '../db/application-detail-store.ts';
import { isUuid, type Actor } from '../db/applications-store.ts';
import type { Database } from '../db/client.ts';
import { HttpError, forbidden, notFound } from '../http-error.ts';
import { applicationNotFoundMessage } from './application-detail.routes.ts';

/**
 * What the e-mail, API-step and report actions know about their application before acting: the
 * detail exactly as the caller would read it (their claims decide its documents and tax), so the
 * items an action must be one of (ReportItems, ApiItems) come from the one place that builds them.
 */
export async function actionableDetail(
  db: Database,
  actor: Actor,
  applicationId: number,
): Promise<ApplicationDetail> {
  const json = await applicationDetailJson(db, actor, applicationId);
  if (json === undefined) throw notFound(applicationNotFoundMessage);
  return ApplicationDetailSchema.parse(JSON.parse(json));
}

/** The same, addressed by ApplicationGuid (trigger API, reports). */
export async function actionableDetailByGuid(
  db: Database,
  actor: Actor,
  guid: string,
): Promise<ApplicationDetail> {
  const found = isUuid(guid) ? await findVisibleApplicationByGuid(db, actor, guid) : undefined;
  if (!found) throw notFound(applicationNotFoundMessage);
  return actionableDetail(db, actor, found.id);
}

/** AM §6 through the shared rule table: 403 naming the missing claim, 409 with the state's reason. */
export function enforceActionRule(
  action: ApplicationAction,
  facts: ActionFacts,
  claims: readonly string[],
): void {
  const verdict = actionVerdict(action, facts, claims);
  if (verdict.allowed) return;
  if (verdict.reason === 'claim') throw forbidden(`Requires the ${verdict.claim} claim.`);
  throw new HttpError(409, verdict.message);
}
