import { OptionListSchema, AssigneesResponseSchema, OwnersResponseSchema } from '../../src/schemas/lookups.schema.ts';
import { allAppsClaims, myAppsClaim } from '../../src/domain/claims.ts';
import { assigneeOptions, labelOptions, ownerOptions, productOptions, subBrandOptions } from '../db/applications-store.ts';
import { tenantOf, type RouteContext } from './context.ts';

/** The lists fill the filter modal and pickers, so any list claim reads them. */
const listClaims = [myAppsClaim, ...allAppsClaims];

/** AM §7 lookups: each answers the tenant's options only (the tenant comes from the host and the token). */
export function registerLookupRoutes({ app, db, access }: RouteContext) {
  const anyList = access.requireAccess({ scope: 'applicationmanager', anyClaim: listClaims });

  app.get('/api/label/list', { preValidation: anyList, schema: { response: { 200: OptionListSchema } } }, async (request) =>
    labelOptions(db, tenantOf(request).id, 'label'),
  );

  /** System labels, shown as Tag. */
  app.get('/api/label/system/list', { preValidation: anyList, schema: { response: { 200: OptionListSchema } } }, async (request) =>
    labelOptions(db, tenantOf(request).id, 'system'),
  );

  app.get('/api/account/assignees', { preValidation: anyList, schema: { response: { 200: AssigneesResponseSchema } } }, async (request) => ({
    Assignees: await assigneeOptions(db, tenantOf(request).id),
  }));

  app.get('/api/subbrand/list', { preValidation: anyList, schema: { response: { 200: OptionListSchema } } }, async (request) =>
    subBrandOptions(db, tenantOf(request).id),
  );

  app.get('/api/product/list', { preValidation: anyList, schema: { response: { 200: OptionListSchema } } }, async (request) =>
    productOptions(db, tenantOf(request).id),
  );

  // The New on-behalf modal picks from this list, so app.createonbehalf reads it too.
  app.get(
    '/api/owner/list',
    {
      preValidation: access.requireAccess({ scope: 'applicationmanager', anyClaim: [...listClaims, 'app.createonbehalf'] }),
      schema: { response: { 200: OwnersResponseSchema } },
    },
    async (request) => ({ ApplicationOwners: await ownerOptions(db, tenantOf(request).id) }),
  );
}
