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
import {
  actionRules,
  canUnlockApplicant,
  type ApplicationAction,
} from '../../src/domain/application-actions.ts';
import { HttpError, badRequest, notFound } from '../http-error.ts';
import { assigneeOption, isUuid, type Actor } from '../db/applications-store.ts';
import {
  actionFactsOf,
  addLabel,
  assignWrite,
  changeOwnerWrite,
  changePrimaryEmailWrite,
  changeSigningModeWrite,
  findActionApplication,
  findApplicant,
  findTenantOwner,
  labelExists,
  lockVisibleApplication,
  recordEditRequested,
  reopenForEdit,
  setLabelWrite,
  unlockApplicant,
  unlockApplicationWrite,
  writeAction,
  type ActionApplication,
  type ActionWrite,
  type ApplicationKey,
  type Tx,
} from '../db/application-actions-store.ts';
import { depersonalise } from '../db/depersonalise-store.ts';
import { freedSpaceScrubberFor } from '../db/freed-space.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { enforceActionRule } from './application-action-checks.ts';
import {
  ApplicationIdParamsSchema,
  applicationNotFoundMessage,
  viewApplicationRule,
} from './application-detail.routes.ts';
import { formUrl } from './applications.routes.ts';
import { tenantSettingsOf } from './configuration.routes.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';
import { applicationGuidIn, applicationIdParam } from './application-write-rule.ts';

const GuidParamsSchema = z.object({ guid: z.uuid('guid: must be an ApplicationGuid') });
const SigningModeParamsSchema = ApplicationIdParamsSchema.extend({ mode: SigningModeSchema });

/** The claim an action's rule names, checked before the body is read (a string for every action routed here). */
function claimOf(action: ApplicationAction): string[] {
  const claim = actionRules[action].claim;
  return typeof claim === 'string' ? [claim] : [];
}

const labelLimitMessage = (limit: number) => `The maximum of ${limit} labels has been reached.`;
const labelExistsMessage = (name: string) => `A label named ${name} already exists.`;

/**
 * The detail screen's actions (AM §2, §6, §7; issue 13). Each route needs a list claim (the
 * application must be one the caller can open) and its action's claim; then, on the application as
 * it is when the change is written, `actionVerdict` (src/domain/application-actions.ts, the same
 * table the portal's menu reads) decides: 403 for the claim, 409 with its message for the state.
 * Unknown, another tenant's, cancelled and invisible applications are the detail's one 404.
 */
export function registerApplicationActionRoutes({ app, db, access, config }: RouteContext, storage: FileStorage) {
  // PGlite keeps freed bytes until vacuumed (it has no autovacuum); PostgreSQL vacuums on its own,
  // and here only the statistics' samples are refreshed.
  const freedSpace = freedSpaceScrubberFor(
    db,
    config.DEPERSONALISE_SCRUB === 'off' ? 'off' : config.DATABASE_URL === undefined ? 'embedded' : 'postgres',
  );
  // Scrubs recorded but not done (the last server stopped first) are done once this one has started,
  // in the background; a graceful stop finishes the run under way and leaves the rest recorded.
  app.addHook('onReady', async () => freedSpace.schedule(app.log));
  app.addHook('onClose', async () => freedSpace.close());
  const accessFor = (action: ApplicationAction) =>
    access.requireAccess({ ...viewApplicationRule, claims: claimOf(action) });

  /** 404 unless visible; 403 for the claim and 409 with the rule's message for the state (actionVerdict). */
  function judge(
    actor: Actor,
    action: ApplicationAction,
    application: ActionApplication | undefined,
  ): ActionApplication {
    if (!application) throw notFound(applicationNotFoundMessage);
    enforceActionRule(action, actionFactsOf(application), actor.claims);
    return application;
  }

  /**
   * An action of one statement: read and judge, then write while the application is as judged
   * (application-actions-store.ts); if it changed meanwhile, read and judge again.
   */
  async function perform(
    actor: Actor,
    key: ApplicationKey,
    action: ApplicationAction,
    change: (application: ActionApplication) => ActionWrite,
  ) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const application = judge(actor, action, await findActionApplication(db, actor, key));
      const write = change(application);
      if (await writeAction(db, actor, application, write)) return write.activity;
    }
    throw new HttpError(409, 'The application kept changing while this was being saved. Please try again.');
  }

  /** An action of several statements: the application locked, judged, and `work` run in the same transaction. */
  function act<T>(
    actor: Actor,
    key: ApplicationKey,
    action: ApplicationAction,
    work: (tx: Tx, application: ActionApplication) => Promise<T>,
  ) {
    return db.transaction(async (tx) =>
      work(tx, judge(actor, action, await lockVisibleApplication(tx, actor, key))),
    );
  }

  const done = (message: string) => ({ Success: true, Message: `${message}.` });

  app.post(
    '/api/application/assign/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: accessFor('assign'),
      schema: {
        params: ApplicationIdParamsSchema,
        body: AssignRequestSchema,
        response: { 200: ActionResultSchema },
      },
    },
    async (request) => {
      const actor = principalOf(request);
      const wanted = request.body.GlobalUserId;
      let assignee: { id: string; name: string } | null = null;
      if (wanted !== null) {
        const option = await assigneeOption(db, actor.tenantId, wanted);
        if (!option?.Assignable)
          throw badRequest('GlobalUserId: no assignable user of this tenant has this id');
        assignee = { id: option.Value, name: option.Name };
      }
      return done(
        await perform(actor, { id: request.params.id }, 'assign', () => assignWrite(actor, assignee)),
      );
    },
  );

  // Not an action on one application: the label.add claim alone (AM §6), and the tenant's limit (AM §5).
  app.post(
    '/api/label/add',
    {
      config: { application: 'none' },
      preValidation: access.requireAccess({ scope: 'applicationmanager', claims: ['label.add'] }),
      schema: { body: AddLabelRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const limit = tenantSettingsOf(tenant).MaximumLabelLimit;
      const name = request.body.LabelText;
      const outcome = await addLabel(db, tenant.id, name, limit);
      if (outcome.added) return { Success: true, Message: `Label ${name} created.` };
      return {
        Success: false,
        Message: outcome.reason === 'limit' ? labelLimitMessage(limit) : labelExistsMessage(name),
      };
    },
  );

  app.post(
    '/api/label/save',
    {
      config: { application: applicationGuidIn('body', 'ApplicationId') },
      preValidation: accessFor('setLabel'),
      schema: { body: SaveLabelRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const label = request.body.Label;
      if (label !== '' && !(await labelExists(db, actor.tenantId, label)))
        throw badRequest('Label: no label of this tenant has this name');
      return done(
        await perform(actor, { guid: request.body.ApplicationId }, 'setLabel', () =>
          setLabelWrite(actor, label),
        ),
      );
    },
  );

  app.post(
    '/api/application/updateowner/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: accessFor('changeOwner'),
      schema: {
        params: ApplicationIdParamsSchema,
        body: UpdateOwnerRequestSchema,
        response: { 200: ActionResultSchema },
      },
    },
    async (request) => {
      const actor = principalOf(request);
      const owner = await findTenantOwner(db, actor.tenantId, request.body.NewOwnerId);
      if (!owner) throw badRequest('NewOwnerId: no owner of this tenant has this PublicId');
      return done(
        await perform(actor, { id: request.params.id }, 'changeOwner', (application) =>
          changeOwnerWrite(actor, application, owner),
        ),
      );
    },
  );

  app.post(
    '/api/application/changeprimaryemail/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: accessFor('changePrimaryEmail'),
      schema: {
        params: ApplicationIdParamsSchema,
        body: ChangePrimaryEmailRequestSchema,
        response: { 200: ActionResultSchema },
      },
    },
    async (request) => {
      const actor = principalOf(request);
      const email = request.body.PrimaryEmail;
      return done(
        await perform(actor, { id: request.params.id }, 'changePrimaryEmail', () =>
          changePrimaryEmailWrite(actor, email),
        ),
      );
    },
  );

  app.post(
    '/api/application/changesigningmode/:id/:mode',
    {
      config: { application: applicationIdParam() },
      preValidation: accessFor('changeSigningMode'),
      schema: { params: SigningModeParamsSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const { id, mode } = request.params;
      return done(
        await perform(actor, { id }, 'changeSigningMode', () => changeSigningModeWrite(actor, mode)),
      );
    },
  );

  app.post(
    '/api/application/unlockapplication/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: accessFor('unlockApplication'),
      schema: { params: ApplicationIdParamsSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      return done(
        await perform(actor, { id: request.params.id }, 'unlockApplication', (application) =>
          unlockApplicationWrite(actor, application),
        ),
      );
    },
  );

  app.post(
    '/api/applicant/labformmfaunlock',
    {
      config: { application: applicationGuidIn('body', 'ApplicationId') },
      preValidation: accessFor('unlockApplicant'),
      schema: { body: UnlockApplicantRequestSchema, response: { 200: ActionResultSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const { ApplicationId, IndividualId, InstanceName } = request.body;
      if (!isUuid(IndividualId)) throw badRequest('IndividualId: must be an applicant IndividualId');
      const activity = await act(
        actor,
        { guid: ApplicationId },
        'unlockApplicant',
        async (tx, application) => {
          // The detail's InstanceName is the tenant: an unlock meant for another instance is not for this one.
          if (InstanceName !== application.tenantId)
            throw badRequest('InstanceName: not the instance of this application');
          const applicant = await findApplicant(tx, application.id, IndividualId);
          if (!applicant) throw notFound('IndividualId: this application has no applicant with this id.');
          if (
            !canUnlockApplicant(
              actionFactsOf(application),
              { IsMFALocked: applicant.isMfaLocked },
              actor.claims,
            )
          ) {
            throw new HttpError(409, 'This applicant is not locked.');
          }
          return unlockApplicant(tx, actor, application, applicant);
        },
      );
      return done(activity);
    },
  );

  // ARCHITECTURE §5: a completed application is edited only once the person confirmed that its
  // approvals will be reset (AM §4); the answer is the provider's form to edit it in.
  app.post(
    '/api/application/requestedit/:guid',
    {
      config: { application: applicationGuidIn('params', 'guid') },
      preValidation: accessFor('edit'),
      schema: {
        params: GuidParamsSchema,
        body: RequestEditRequestSchema,
        response: { 200: RequestEditResponseSchema },
      },
    },
    async (request) => {
      const actor = principalOf(request);
      const result = await act(actor, { guid: request.params.guid }, 'edit', async (tx, application) => {
        const complete = actionFactsOf(application).IsComplete;
        if (complete && !request.body.ConfirmationAccepted)
          return { Result: requestEditRequireConfirmation, guid: application.guid };
        if (complete) await reopenForEdit(tx, actor, application);
        else await recordEditRequested(tx, actor, application);
        return { Result: requestEditSuccess, guid: application.guid };
      });
      return {
        Result: result.Result,
        Url: result.Result === requestEditSuccess ? await formUrl({ db }, request, result.guid) : '',
      };
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
      // Judged like every action, though viewing writes nothing.
      const application = judge(
        actor,
        'view',
        await findActionApplication(db, actor, { guid: request.params.guid }),
      );
      return { Url: await formUrl({ db }, request, application.guid, 'view') };
    },
  );

  app.put(
    '/api/application/depersonalise/:guid',
    {
      config: { application: applicationGuidIn('params', 'guid'), erasesApplications: true },
      preValidation: accessFor('depersonalise'),
      schema: { params: GuidParamsSchema, response: { 200: DepersonaliseResponseSchema } },
    },
    async (request) => {
      const actor = principalOf(request);
      const bytesInDatabase = storage.kind === 'database';
      const { keysToDelete } = await act(
        actor,
        { guid: request.params.guid },
        'depersonalise',
        (tx, application) => depersonalise(tx, actor, application, { bytesInDatabase }),
      );
      // Files outside the database go once the rows that reach them are gone: a failed delete leaves
      // bytes nothing points at, logged under their keys for the operator, never a document without its file.
      for (const key of keysToDelete) {
        await storage
          .delete(key)
          .catch((error: unknown) =>
            request.log.error({ err: error, key }, 'deleting a depersonalised document failed'),
          );
      }
      // The old values' bytes (dead row versions, WAL) go after the answer (server/db/freed-space.ts).
      freedSpace.schedule(request.log);
      return { OverallSuccess: true, ErrorMessage: '' };
    },
  );
}
