import * as z from 'zod';
import {
  ActionResultSchema,
  AddLabelRequestSchema,
  AssignRequestSchema,
  ChangePrimaryEmailRequestSchema,
  DepersonaliseResponseSchema,
  RequestEditRequestSchema,
  RequestEditResponseSchema,
  RequestViewResponseSchema,
  SaveLabelRequestSchema,
  SigningModeSchema,
  UnlockApplicantRequestSchema,
  UpdateOwnerRequestSchema,
  requestEditRequireConfirmation,
  requestEditSuccess,
} from '../../src/schemas/application-actions.schema.ts';
import { actionRules, actionVerdict, canUnlockApplicant, type ApplicationAction } from '../../src/domain/application-actions.ts';
import { HttpError, badRequest, forbidden, notFound } from '../http-error.ts';
import { assigneeOptions, isUuid, type Actor } from '../db/applications-store.ts';
import {
  actionFactsOf,
  addLabel,
  assignApplication,
  changeOwner,
  changePrimaryEmail,
  changeSigningMode,
  findApplicant,
  findTenantOwner,
  labelExists,
  lockVisibleApplication,
  recordEditRequested,
  reopenForEdit,
  setLabel,
  unlockApplicant,
  unlockApplication,
  type ActionApplication,
  type ApplicationKey,
  type Tx,
} from '../db/application-actions-store.ts';
import { depersonalise } from '../db/depersonalise-store.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { ApplicationIdParamsSchema, applicationNotFoundMessage, viewApplicationRule } from './application-detail.routes.ts';
import { formUrl } from './applications.routes.ts';
import { tenantSettingsOf } from './configuration.routes.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';

const GuidParamsSchema = z.object({ guid: z.uuid('guid: must be an ApplicationGuid') });
const SigningModeParamsSchema = ApplicationIdParamsSchema.extend({ mode: SigningModeSchema });

/** The claim an action's rule names, checked before the body is read (a string for every action routed here). */
function claimOf(action: ApplicationAction): string[] {
  const claim = actionRules[action].claim;
  return typeof claim === 'string' ? [claim] : [];
}

export const labelLimitMessage = (limit: number) => `The maximum of ${limit} labels has been reached.`;
export const labelExistsMessage = (name: string) => `A label named ${name} already exists.`;

/**
 * The detail screen's actions (AM §2, §6, §7; issue 13). Each route needs a list claim (the
 * application must be one the caller can open) and its action's claim; then, with the application
 * locked in the action's transaction, `actionVerdict` (src/domain/application-actions.ts, the same
 * table the portal's menu reads) decides: 403 for the claim, 409 with its message for the state.
 * Unknown, another tenant's, cancelled and invisible applications are the detail's one 404.
 */
export function registerApplicationActionRoutes({ app, db, access }: RouteContext, storage: FileStorage) {
  const accessFor = (action: ApplicationAction) => access.requireAccess({ ...viewApplicationRule, claims: claimOf(action) });

  /** Locks the application, judges the action on it, and runs `work` in the same transaction. */
  function act<T>(actor: Actor, key: ApplicationKey, action: ApplicationAction, work: (tx: Tx, application: ActionApplication) => Promise<T>) {
    return db.transaction(async (tx) => {
      const application = await lockVisibleApplication(tx, actor, key);
      if (!application) throw notFound(applicationNotFoundMessage);
      const verdict = actionVerdict(action, actionFactsOf(application), actor.claims);
      if (!verdict.allowed) {
        throw verdict.reason === 'claim' ? forbidden(`Requires the ${verdict.claim} claim.`) : new HttpError(409, verdict.message);
      }
      return work(tx, application);
    });
  }

  const done = (message: string) => ({ Success: true, Message: `${message}.` });

  app.post(
    '/api/application/assign/:id',
    {
      preValidation: accessFor('assign'),
      schema: { params: ApplicationIdParamsSchema, body: AssignRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const wanted = request.body.GlobalUserId;
      let assignee: { id: string; name: string } | null = null;
      if (wanted !== null) {
        const option = (await assigneeOptions(db, actor.tenantId)).find((candidate) => candidate.Value === wanted.toLowerCase());
        if (!option?.Assignable) throw badRequest('GlobalUserId: no assignable user of this tenant has this id');
        assignee = { id: option.Value, name: option.Name };
      }
      return done(await act(actor, { id: request.params.id }, 'assign', (tx, application) => assignApplication(tx, actor, application, assignee)));
    },
  );

  // Not an action on one application: the label.add claim alone (AM §6), and the tenant's limit (AM §5).
  app.post(
    '/api/label/add',
    {
      preValidation: access.requireAccess({ scope: 'applicationmanager', claims: ['label.add'] }),
      schema: { body: AddLabelRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const limit = tenantSettingsOf(tenant).MaximumLabelLimit;
      const name = request.body.LabelText;
      const outcome = await addLabel(db, tenant.id, name, limit);
      if (outcome.added) return { Success: true, Message: `Label ${name} created.` };
      return { Success: false, Message: outcome.reason === 'limit' ? labelLimitMessage(limit) : labelExistsMessage(name) };
    },
  );

  app.post(
    '/api/label/save',
    {
      preValidation: accessFor('setLabel'),
      schema: { body: SaveLabelRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const label = request.body.Label;
      if (label !== '' && !(await labelExists(db, actor.tenantId, label))) throw badRequest('Label: no label of this tenant has this name');
      return done(await act(actor, { guid: request.body.ApplicationId }, 'setLabel', (tx, application) => setLabel(tx, actor, application, label)));
    },
  );

  app.post(
    '/api/application/updateowner/:id',
    {
      preValidation: accessFor('changeOwner'),
      schema: { params: ApplicationIdParamsSchema, body: UpdateOwnerRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const owner = await findTenantOwner(db, actor.tenantId, request.body.NewOwnerId);
      if (!owner) throw badRequest('NewOwnerId: no owner of this tenant has this PublicId');
      return done(await act(actor, { id: request.params.id }, 'changeOwner', (tx, application) => changeOwner(tx, actor, application, owner)));
    },
  );

  app.post(
    '/api/application/changeprimaryemail/:id',
    {
      preValidation: accessFor('changePrimaryEmail'),
      schema: { params: ApplicationIdParamsSchema, body: ChangePrimaryEmailRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const email = request.body.PrimaryEmail;
      return done(await act(actor, { id: request.params.id }, 'changePrimaryEmail', (tx, application) => changePrimaryEmail(tx, actor, application, email)));
    },
  );

  app.post(
    '/api/application/changesigningmode/:id/:mode',
    {
      preValidation: accessFor('changeSigningMode'),
      schema: { params: SigningModeParamsSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const { id, mode } = request.params;
      return done(await act(actor, { id }, 'changeSigningMode', (tx, application) => changeSigningMode(tx, actor, application, mode)));
    },
  );

  app.post(
    '/api/application/unlockapplication/:id',
    {
      preValidation: accessFor('unlockApplication'),
      schema: { params: ApplicationIdParamsSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      return done(await act(actor, { id: request.params.id }, 'unlockApplication', (tx, application) => unlockApplication(tx, actor, application)));
    },
  );

  app.post(
    '/api/applicant/labformmfaunlock',
    {
      preValidation: accessFor('unlockApplicant'),
      schema: { body: UnlockApplicantRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const { ApplicationId, IndividualId, InstanceName } = request.body;
      if (!isUuid(IndividualId)) throw badRequest('IndividualId: must be an applicant IndividualId');
      const activity = await act(actor, { guid: ApplicationId }, 'unlockApplicant', async (tx, application) => {
        // The detail's InstanceName is the tenant: an unlock meant for another instance is not for this one.
        if (InstanceName !== application.tenantId) throw badRequest('InstanceName: not the instance of this application');
        const applicant = await findApplicant(tx, application.id, IndividualId);
        if (!applicant) throw notFound('IndividualId: this application has no applicant with this id.');
        if (!canUnlockApplicant(actionFactsOf(application), { IsMFALocked: applicant.isMfaLocked }, actor.claims)) {
          throw new HttpError(409, 'This applicant is not locked.');
        }
        return unlockApplicant(tx, actor, application, applicant);
      });
      return done(activity);
    },
  );

  // ARCHITECTURE §5: a completed application is edited only once the person confirmed that its
  // approvals will be reset (AM §4); the answer is the provider's form to edit it in.
  app.post(
    '/api/application/requestedit/:guid',
    {
      preValidation: accessFor('edit'),
      schema: { params: GuidParamsSchema, body: RequestEditRequestSchema, response: { 200: RequestEditResponseSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const result = await act(actor, { guid: request.params.guid }, 'edit', async (tx, application) => {
        const complete = actionFactsOf(application).IsComplete;
        if (complete && !request.body.ConfirmationAccepted) return { Result: requestEditRequireConfirmation, guid: application.guid };
        if (complete) await reopenForEdit(tx, actor, application);
        else await recordEditRequested(tx, actor, application);
        return { Result: requestEditSuccess, guid: application.guid };
      });
      return { Result: result.Result, Url: result.Result === requestEditSuccess ? await formUrl({ db }, request, result.guid) : '' };
    },
  );

  app.get(
    '/api/application/requestview/:guid',
    {
      preValidation: accessFor('view'),
      schema: { params: GuidParamsSchema, response: { 200: RequestViewResponseSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      // Judged on the locked row like every action, though viewing writes nothing.
      const guid = await act(actor, { guid: request.params.guid }, 'view', async (_tx, application) => application.guid);
      return { Url: await formUrl({ db }, request, guid, 'view') };
    },
  );

  app.put(
    '/api/application/depersonalise/:guid',
    {
      preValidation: accessFor('depersonalise'),
      schema: { params: GuidParamsSchema, response: { 200: DepersonaliseResponseSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const bytesInDatabase = storage.kind === 'database';
      const { keysToDelete } = await act(actor, { guid: request.params.guid }, 'depersonalise', (tx, application) =>
        depersonalise(tx, actor, application, { bytesInDatabase }),
      );
      // Files outside the database go once the rows that reach them are gone: a failed delete leaves
      // bytes nothing points at, logged under their keys for the operator, never a document without its file.
      for (const key of keysToDelete) {
        await storage.delete(key).catch((error: unknown) => request.log.error({ err: error, key }, 'deleting a depersonalised document failed'));
      }
      return { OverallSuccess: true, ErrorMessage: '' };
    },
  );
}
