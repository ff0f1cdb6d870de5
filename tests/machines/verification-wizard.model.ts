import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { verificationWizardMachine } from '../../src/machines/verification-wizard.machine.ts';
import type { IndividualVerificationType, LoadedForm, VerifyResponse } from '../../src/schemas/verifications.schema.ts';
import { HttpError } from '../../src/services/http.ts';
import { defineMachineModel } from './machine-model.ts';

const form = (name: string): LoadedForm => ({ schema: { title: name }, uiSchema: {}, data: { seed: name }, validatorModule: `/${name}.js`, validators: {} });
const typeForm = form('type');
const detailsForm = form('details');
const filled = { IndividualDetails: { FirstName: 'Olivia', LastName: 'Nguyen' } };
const passed: VerifyResponse = {
  requestId: 'V7',
  requestDateTime: '2026-01-01T00:00:00.000Z',
  responseSucceeded: true,
  overallResult: 'success',
  provider: 'sandbox',
  providerReference: 'sandbox-V7',
  reportLink: '/r',
};
const refusal = new HttpError(400, '/verify', { message: 'individual.firstName: is required' });

/** SUV §4, written here: Continue needs biometric, or a chosen type and consent. */
const mayContinue = (type: unknown, consent: boolean) => type === 'BiometricVerification' || (type === 'IndividualVerification' && consent);

export default defineMachineModel({
  name: 'verification-wizard',
  machine: verificationWizardMachine.provide({
    actors: {
      loadTypeForm: fromPromise<LoadedForm>(() => new Promise(() => {})),
      loadDetailsForm: fromPromise<LoadedForm, { type: IndividualVerificationType }>(() => new Promise(() => {})),
      verify: fromPromise<VerifyResponse, { type: IndividualVerificationType; formData: Record<string, unknown> }>(() => new Promise(() => {})),
    },
  }),
  preconditions: 'The wizard just opened from the Individual tab',
  contextKey: (snapshot) => ({ type: snapshot.context.type, consent: snapshot.context.consent, valid: snapshot.context.valid }),
  events: [
    { type: 'xstate.done.actor.loadTypeForm', output: typeForm },
    { type: 'xstate.error.actor.loadTypeForm', error: new Error('500') },
    { type: 'type.change', value: 'IndividualVerification' },
    { type: 'type.change', value: 'BiometricVerification' },
    { type: 'consent.change', checked: true },
    { type: 'consent.change', checked: false },
    { type: 'xstate.done.actor.loadDetailsForm', output: detailsForm },
    { type: 'xstate.error.actor.loadDetailsForm', error: new Error('500') },
    { type: 'details.change', formData: filled, valid: true },
    { type: 'details.change', formData: {}, valid: false },
    { type: 'xstate.done.actor.verify', output: passed },
    { type: 'xstate.error.actor.verify', error: refusal },
    { type: 'xstate.error.actor.verify', error: new Error('network') },
  ],
  expectations: {
    states: {
      loadingType: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      typeFormFailed: (snapshot) => expect(snapshot.context.typeForm).toBeUndefined(),
      choosingType: (snapshot) => expect(snapshot.context.typeForm).toEqual(typeForm),
      loadingDetails: (snapshot) => expect(mayContinue(snapshot.context.type, snapshot.context.consent)).toBe(true),
      detailsFormFailed: (snapshot) => expect(snapshot.context.detailsForm).toBeUndefined(),
      enteringDetails: (snapshot) => expect(snapshot.context.detailsForm).toEqual(detailsForm),
      verifying: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.valid).toBe(true);
      },
      results: (snapshot) => expect(snapshot.context.result).toBeDefined(),
      closed: (snapshot) => {
        expect(snapshot.status).toBe('done');
        // SUV §4: the list switches to Individual and refreshes.
        expect(snapshot.output).toEqual({ refresh: true });
      },
    },
    transitions: {
      'loadingType + xstate.done.actor.loadTypeForm': ({ after }) => expect(after.matches('choosingType')).toBe(true),
      // SUV §8: a form that fails to load renders nothing.
      'loadingType + xstate.error.actor.loadTypeForm': ({ after }) => expect(after.matches('typeFormFailed')).toBe(true),
      'choosingType + type.change': ({ event, after }) => expect(after.context.type).toBe(event.value),
      'choosingType + consent.change': ({ event, after }) => expect(after.context.consent).toBe(event.checked),
      'choosingType + step.continue': ({ before, after, started }) => {
        if (mayContinue(before.context.type, before.context.consent)) expect(started).toEqual({ loadDetailsForm: { type: before.context.type } });
        else {
          expect(after.matches('choosingType')).toBe(true);
          expect(started).toEqual({});
        }
      },
      'loadingDetails + xstate.done.actor.loadDetailsForm': ({ after }) => {
        // The form starts from the server's data, with no errors shown yet.
        expect(after.context.formData).toEqual({ seed: 'details' });
        expect(after.context.attempted).toBe(false);
      },
      'loadingDetails + xstate.error.actor.loadDetailsForm': ({ after }) => expect(after.matches('detailsFormFailed')).toBe(true),
      'enteringDetails + details.change': ({ event, after }) => {
        expect(after.context.formData).toEqual(event.formData);
        expect(after.context.serverErrors).toEqual({});
      },
      // SUV §5: no call while invalid; errors live from the first attempt.
      'enteringDetails + details.submit': ({ before, after, started }) => {
        expect(after.context.attempted).toBe(true);
        if (before.context.valid) expect(started).toEqual({ verify: { type: before.context.type, formData: before.context.formData } });
        else {
          expect(started).toEqual({});
          expect(after.matches('enteringDetails')).toBe(true);
        }
      },
      'verifying + xstate.done.actor.verify': ({ after }) => expect(after.context.result).toEqual(passed),
      // A field the server refused goes back to the form, on that field; anything else reads as not succeeded.
      'verifying + xstate.error.actor.verify': ({ event, after }) => {
        if (event.error === refusal) {
          expect(after.matches('enteringDetails')).toBe(true);
          expect(after.context.serverErrors).toEqual({ 'IndividualDetails.FirstName': 'is required' });
        } else {
          expect(after.matches('results')).toBe(true);
          expect(after.context.result?.responseSucceeded).toBe(false);
        }
      },
      '(machine) + wizard.cancel': ({ after }) => expect(after.status).toBe('done'),
    },
  },
});
