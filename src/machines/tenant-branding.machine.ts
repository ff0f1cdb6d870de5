import { createActorContext } from '@xstate/react';
import { assign, fromPromise, setup } from 'xstate';
import type { TenantConfiguration } from '../schemas/configuration.schema.ts';
import { tenantConfiguration } from '../services/configuration.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface TenantBrandingContext {
  /** The tenant's branding once loaded; undefined while loading or when it could not be had. */
  tenant: TenantConfiguration | undefined;
}

/**
 * Pages outside the session (/timeout) still carry the tenant's brand: its name in the title and its
 * colours. The branding is public (GET /configuration/tenant), so it is loaded once here; when it
 * cannot be had the page keeps the platform's name, as the unavailable pages do.
 */
export const tenantBrandingMachine = setup({
  types: typesOf<{ context: TenantBrandingContext; tags: 'busy' }>(),
  actors: {
    loadTenant: fromPromise(() => tenantConfiguration()),
  },
  actions: {
    assignTenant: assign((_, params: { tenant: TenantConfiguration }) => ({ tenant: params.tenant })),
  },
}).createMachine({
  id: 'tenantBranding',
  initial: 'loading',
  context: { tenant: undefined },
  states: {
    loading: {
      description: "The tenant's branding is loaded; the page shows the platform's name meanwhile",
      tags: ['busy'],
      invoke: {
        id: 'loadTenant',
        src: 'loadTenant',
        onDone: { target: 'branded', actions: { type: 'assignTenant', params: ({ event }) => ({ tenant: event.output }) } },
        onError: { target: 'unbranded' },
      },
    },
    branded: {
      description: "The tenant's name and colours are shown",
      type: 'final',
    },
    unbranded: {
      description: "The branding could not be loaded: the platform's name stays",
      type: 'final',
    },
  },
});

/** The pages outside the session provide this around themselves. */
export const TenantBrandingContext = createActorContext(tenantBrandingMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose: "Loads the tenant's public branding for the pages outside the session, such as the session-expired page.",
  spec: ['SUV §2'],
  actors: {
    loadTenant: {
      does: "Loads the tenant's branding (GET /configuration/tenant)",
      done: 'branding loaded',
      failed: 'branding could not be loaded',
    },
  },
} satisfies MachineLabels<typeof tenantBrandingMachine>;
