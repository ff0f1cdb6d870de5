import { expect } from 'vitest';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { identityVerificationMachine } from '../../src/machines/identity-verification.machine.ts';
import type {
  IdentificationOptionsResponse,
  VerifyRequest,
  VerifyResponse,
} from '../../src/schemas/identity-verification.schema.ts';
import type { LoadedIdentificationOptions } from '../../src/services/identity-verification.service.ts';
import { defineMachineModel } from './machine-model.ts';

const applicationGuid = '3f2a9c1e-0000-4000-8000-000000000014';
const individualId = '3f2a9c1e-a000-4000-8000-000000000014';
const form = {
  FormSchema: {
    type: 'object',
    required: ['DocumentType'],
    properties: { DocumentType: { type: 'string', enum: ['Passport'] } },
  },
  UISchema: {},
  ValidatorModule: '/api/Reverification/formValidator/0123456789abcdef.js',
};
const options: IdentificationOptionsResponse = { ErrorNo: 0, Message: '', Data: form };
/** The compiled validators module's default export (opaque to the machine). */
const validators = { root: () => true };
const noOptions: IdentificationOptionsResponse = {
  ErrorNo: -1,
  Message: 'No additional verification options available.',
  Data: null,
};
/** No error, but no form either: nothing to fill in, so no options. */
const emptyOptions: IdentificationOptionsResponse = { ErrorNo: 0, Message: '', Data: null };
const passport = { DocumentType: 'Passport', Country: 'AUS', PassportNumber: 'PA1234567' };
const passed: VerifyResponse = {
  ErrorNo: 0,
  Message: 'The identity was verified.',
  Result: 0,
  ResultText: 'Verified',
};
const sanctionsHit: VerifyResponse = {
  ErrorNo: 2,
  Message: 'Possible match on a sanctions list.',
  Result: 2,
  ResultText: 'Sanctions match',
};

const never = <T, I>() => fromPromise<T, I>(() => new Promise<T>(() => {}));
const isReverification = (snapshot: AnyMachineSnapshot) => snapshot.context.mode === 'ExistingEnquiry';
const idle = (snapshot: AnyMachineSnapshot) => expect(snapshot.hasTag('busy')).toBe(false);
const closes = ({ after }: { after: AnyMachineSnapshot }) => expect(after.status).toBe('done');

export default defineMachineModel({
  name: 'identity-verification',
  machine: identityVerificationMachine.provide({
    actors: {
      loadOptions: never<LoadedIdentificationOptions, { applicationGuid: string; individualId: string }>(),
      verify: never<VerifyResponse, { applicationGuid: string; request: VerifyRequest }>(),
    },
  }),
  input: { applicationGuid, individualId, mode: 'ExistingEnquiry' },
  variants: [
    {
      name: 'NewEnquiry (verification)',
      input: { applicationGuid, individualId, mode: 'NewEnquiry' },
      events: ['verify.submit', 'xstate.done.actor.verify', 'xstate.error.actor.verify', 'verify.retry'],
    },
    {
      name: 'SanctionsOnly (PEP/Sanctions screening)',
      input: { applicationGuid, individualId, mode: 'SanctionsOnly' },
      events: ['verify.submit', 'xstate.done.actor.verify'],
    },
  ],
  contextKey: (snapshot) => [snapshot.context.consent, snapshot.context.formValid],
  events: [
    { type: 'xstate.done.actor.loadOptions', output: { response: options, validators } },
    { type: 'xstate.done.actor.loadOptions', output: { response: noOptions, validators: undefined } },
    { type: 'xstate.done.actor.loadOptions', output: { response: emptyOptions, validators: undefined } },
    { type: 'xstate.error.actor.loadOptions', error: new Error('Network error') },
    { type: 'consent.toggle', consented: true },
    { type: 'consent.toggle', consented: false },
    { type: 'form.change', formData: passport, valid: true },
    { type: 'form.change', formData: { DocumentType: 'Passport' }, valid: false },
    { type: 'form.attempt' },
    { type: 'verify.submit' },
    { type: 'xstate.done.actor.verify', output: passed },
    { type: 'xstate.done.actor.verify', output: sanctionsHit },
    { type: 'xstate.error.actor.verify', error: new Error('Network error') },
    { type: 'verify.retry' },
    { type: 'dialog.close' },
  ],
  expectations: {
    states: {
      loadingOptions: (snapshot) => {
        // Only re-verification adds identification, so only it loads options.
        expect(isReverification(snapshot)).toBe(true);
        expect(snapshot.hasTag('busy')).toBe(true);
      },
      noOptions: (snapshot) => {
        idle(snapshot);
        expect(snapshot.context.form).toBeUndefined();
      },
      optionsFailed: (snapshot) => {
        idle(snapshot);
        expect(snapshot.context.form).toBeUndefined();
      },
      consent: (snapshot) => {
        idle(snapshot);
        // Re-verification shows the form; the other modes never load one.
        expect(snapshot.context.form).toEqual(isReverification(snapshot) ? form : undefined);
      },
      submitting: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        // AM §5: Verify only with consent, and for the Add Identification form only when it is valid.
        expect(snapshot.context.consent).toBe(true);
        if (isReverification(snapshot)) expect(snapshot.context.formValid).toBe(true);
      },
      passed: (snapshot) => expect(snapshot.context.result?.ErrorNo).toBe(0),
      failed: (snapshot) => expect(snapshot.context.result?.ErrorNo).not.toBe(0),
      errored: (snapshot) => {
        idle(snapshot);
        expect(snapshot.context.result).toBeUndefined();
      },
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'consent + always': ({ before, after, started }) => {
        // Only re-verification loads options, and only while it has no form.
        expect(isReverification(before) && before.context.form === undefined).toBe(true);
        expect(after.matches('loadingOptions')).toBe(true);
        expect(started.loadOptions).toEqual({ applicationGuid, individualId });
      },
      'loadingOptions + xstate.done.actor.loadOptions': ({ event, after }) => {
        // AM §7/§8: a negative ErrorNo, or no form, means no options.
        const { response } = event.output as LoadedIdentificationOptions;
        const hasForm = response.ErrorNo >= 0 && response.Data !== null;
        expect(after.matches(hasForm ? 'consent' : 'noOptions')).toBe(true);
        // The form comes with its validators, so it shows ready to validate.
        expect(after.context.validators).toBe(hasForm ? validators : undefined);
      },
      'loadingOptions + xstate.error.actor.loadOptions': ({ after }) =>
        expect(after.matches('optionsFailed')).toBe(true),
      'noOptions + dialog.close': closes,
      'optionsFailed + verify.retry': ({ after, started }) => {
        expect(after.matches('loadingOptions')).toBe(true);
        expect(started.loadOptions).toEqual({ applicationGuid, individualId });
      },
      'optionsFailed + dialog.close': closes,
      'consent + consent.toggle': ({ event, after }) => expect(after.context.consent).toBe(event.consented),
      'consent + form.change': ({ event, after }) => {
        expect(after.context.formData).toEqual(event.formData);
        expect(after.context.formValid).toBe(event.valid);
      },
      'consent + form.attempt': ({ after }) => expect(after.context.attempted).toBe(true),
      'consent + verify.submit': ({ before, after, started }) => {
        const allowed = before.context.consent && (!isReverification(before) || before.context.formValid);
        expect(after.matches(allowed ? 'submitting' : 'consent')).toBe(true);
        // Errors show live from the first attempt on.
        expect(after.context.attempted).toBe(true);
        if (allowed) {
          expect(started.verify).toEqual({
            applicationGuid,
            request: {
              IndividualId: individualId,
              Mode: before.context.mode,
              ...(isReverification(before) ? { FormData: before.context.formData } : {}),
            },
          });
        } else expect(started).toEqual({});
      },
      'consent + dialog.close': closes,
      'submitting + xstate.done.actor.verify': ({ event, after, emitted }) => {
        // AM §4: success when ErrorNo is 0; either result changes the application, so the detail refetches.
        const output = event.output as VerifyResponse;
        expect(after.matches(output.ErrorNo === 0 ? 'passed' : 'failed')).toBe(true);
        expect(after.context.result).toEqual(output);
        expect(emitted.map((item) => item.type)).toEqual(['application.changed']);
      },
      'submitting + xstate.error.actor.verify': ({ after, emitted }) => {
        expect(after.matches('errored')).toBe(true);
        // Nothing was recorded: no refetch.
        expect(emitted).toEqual([]);
      },
      'passed + dialog.close': closes,
      'failed + dialog.close': closes,
      'errored + verify.retry': ({ after }) => {
        expect(after.matches('consent')).toBe(true);
        expect(after.context.consent).toBe(true);
      },
      'errored + dialog.close': closes,
    },
  },
});
