import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { tenantBrandingMachine } from '../../src/machines/tenant-branding.machine.ts';
import type { TenantConfiguration } from '../../src/schemas/configuration.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const acme: TenantConfiguration = {
  TenantName: 'acme',
  DisplayName: 'Acme Lending',
  LogoUrl: '',
  PrimaryColor: '#0b5394',
  SecondaryColor: '#f1c232',
  SupportEmail: 'help@acme.test',
  SupportPhone: '1300 000 000',
  HelpUrl: '',
};

export default defineMachineModel({
  name: 'tenant-branding',
  machine: tenantBrandingMachine.provide({
    actors: { loadTenant: fromPromise<TenantConfiguration>(() => new Promise(() => {})) },
  }),
  preconditions: 'A page outside the session (/timeout) just opened',
  events: [
    { type: 'xstate.done.actor.loadTenant', output: acme },
    { type: 'xstate.error.actor.loadTenant', error: new Error('503') },
  ],
  expectations: {
    states: {
      loading: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.tenant).toBeUndefined();
      },
      branded: (snapshot) => expect(snapshot.context.tenant?.DisplayName).toBe('Acme Lending'),
      unbranded: (snapshot) => expect(snapshot.context.tenant).toBeUndefined(),
    },
    transitions: {
      'loading + xstate.done.actor.loadTenant': ({ after }) => expect(after.status).toBe('done'),
      'loading + xstate.error.actor.loadTenant': ({ after }) => expect(after.status).toBe('done'),
    },
  },
});
