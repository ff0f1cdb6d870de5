import { assign, emit, fromPromise, setup } from 'xstate';
import {
  addsIdentification,
  canSubmitVerification,
  hasIdentificationOptions,
  isVerificationSuccess,
} from '../domain/identity-verification.ts';
import type {
  IdentificationForm,
  IdentificationOptionsResponse,
  VerificationMode,
  VerifyRequest,
  VerifyResponse,
} from '../schemas/identity-verification.schema.ts';
import {
  loadIdentificationOptions,
  verifyIndividual,
  type LoadedIdentificationOptions,
} from '../services/identity-verification.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface IdentityVerificationInput {
  applicationGuid: string;
  /** The requirement's EntityGuid: the individual's id. */
  individualId: string;
  mode: VerificationMode;
}

export interface IdentityVerificationContext extends IdentityVerificationInput {
  /** The Add Identification form (re-verification only), once loaded. */
  form: IdentificationForm | undefined;
  /** The form's compiled validators, loaded with the options (the view builds rjsf's validator from them). */
  validators: unknown;
  formData: Record<string, unknown>;
  /** Whether formData passes the form's schema (the view validates with the server-compiled validators). */
  formValid: boolean;
  /** After the first attempt the form shows its errors live (AM §5). */
  attempted: boolean;
  consent: boolean;
  /** The server's answer to verify, once there is one. */
  result: VerifyResponse | undefined;
}

export type IdentityVerificationEvent =
  | { type: 'consent.toggle'; consented: boolean }
  | { type: 'form.change'; formData: Record<string, unknown>; valid: boolean }
  | { type: 'form.attempt' }
  | { type: 'verify.submit' }
  | { type: 'verify.retry' }
  | { type: 'dialog.close' };

/** The application changed (a result was recorded): the hosting detail screen refetches. */
export type IdentityVerificationEmitted = { type: 'application.changed' };

/**
 * AM §4 identity verification in one of three modes (ExistingEnquiry, NewEnquiry, SanctionsOnly):
 * loading options when the mode adds identification, then consent (and the form), submitting, and
 * the result: passed when ErrorNo is 0, otherwise failed; a call that throws shows the failure panel.
 */
export const identityVerificationMachine = setup({
  types: typesOf<{
    context: IdentityVerificationContext;
    events: IdentityVerificationEvent;
    input: IdentityVerificationInput;
    emitted: IdentityVerificationEmitted;
    tags: 'busy';
  }>(),
  actors: {
    loadOptions: fromPromise<LoadedIdentificationOptions, { applicationGuid: string; individualId: string }>(
      ({ input }) => loadIdentificationOptions(input.applicationGuid, input.individualId),
    ),
    verify: fromPromise<VerifyResponse, { applicationGuid: string; request: VerifyRequest }>(({ input }) =>
      verifyIndividual(input.applicationGuid, input.request),
    ),
  },
  guards: {
    needsOptions: ({ context }) => addsIdentification(context.mode) && context.form === undefined,
    hasOptions: (_, params: { response: IdentificationOptionsResponse }) =>
      hasIdentificationOptions(params.response.ErrorNo) && params.response.Data !== null,
    canSubmit: ({ context }) =>
      canSubmitVerification(context.consent, addsIdentification(context.mode), context.formValid),
    isSuccess: (_, params: { response: VerifyResponse }) => isVerificationSuccess(params.response.ErrorNo),
  },
  actions: {
    assignForm: assign((_, params: { options: LoadedIdentificationOptions }) => ({
      form: params.options.response.Data ?? undefined,
      validators: params.options.validators,
    })),
    assignConsent: assign((_, params: { consented: boolean }) => ({ consent: params.consented })),
    assignFormData: assign((_, params: { formData: Record<string, unknown>; valid: boolean }) => ({
      formData: params.formData,
      formValid: params.valid,
    })),
    markAttempted: assign({ attempted: true }),
    assignResult: assign((_, params: { response: VerifyResponse }) => ({ result: params.response })),
    clearResult: assign({ result: undefined }),
    notifyChanged: emit({ type: 'application.changed' as const }),
  },
}).createMachine({
  id: 'identityVerification',
  // Consent first; re-verification leaves it at once to load the form (xstate has no initial chosen by input).
  initial: 'consent',
  context: ({ input }) => ({
    ...input,
    form: undefined,
    validators: undefined,
    formData: {},
    formValid: false,
    attempted: false,
    consent: false,
    result: undefined,
  }),
  states: {
    loadingOptions: {
      description: 'Loading the identification the person may add',
      tags: ['busy'],
      invoke: {
        id: 'loadOptions',
        src: 'loadOptions',
        input: ({ context }) => ({
          applicationGuid: context.applicationGuid,
          individualId: context.individualId,
        }),
        onDone: [
          {
            guard: { type: 'hasOptions', params: ({ event }) => ({ response: event.output.response }) },
            target: 'consent',
            actions: { type: 'assignForm', params: ({ event }) => ({ options: event.output }) },
          },
          { target: 'noOptions' },
        ],
        onError: { target: 'optionsFailed' },
      },
    },
    noOptions: {
      description: "'No additional verification options available.' and Close",
      on: { 'dialog.close': { target: 'closed' } },
    },
    optionsFailed: {
      description: 'The failure panel: the options could not be loaded; Try again or Close',
      on: { 'verify.retry': { target: 'loadingOptions' }, 'dialog.close': { target: 'closed' } },
    },
    consent: {
      description:
        'The consent statement (and the Add Identification form); Verify only with consent ticked and the form valid',
      always: { guard: 'needsOptions', target: 'loadingOptions' },
      on: {
        'consent.toggle': {
          actions: { type: 'assignConsent', params: ({ event }) => ({ consented: event.consented }) },
        },
        'form.change': {
          actions: {
            type: 'assignFormData',
            params: ({ event }) => ({ formData: event.formData, valid: event.valid }),
          },
        },
        'form.attempt': { actions: 'markAttempted' },
        'verify.submit': [
          { guard: 'canSubmit', target: 'submitting', actions: 'markAttempted' },
          { actions: 'markAttempted' },
        ],
        'dialog.close': { target: 'closed' },
      },
    },
    submitting: {
      description: 'Verifying: the request is with the verification provider; the dialog cannot be closed',
      tags: ['busy'],
      invoke: {
        id: 'verify',
        src: 'verify',
        input: ({ context }) => ({
          applicationGuid: context.applicationGuid,
          request: {
            IndividualId: context.individualId,
            Mode: context.mode,
            ...(addsIdentification(context.mode) ? { FormData: context.formData } : {}),
          },
        }),
        onDone: [
          {
            guard: { type: 'isSuccess', params: ({ event }) => ({ response: event.output }) },
            target: 'passed',
            actions: [
              { type: 'assignResult', params: ({ event }) => ({ response: event.output }) },
              'notifyChanged',
            ],
          },
          {
            target: 'failed',
            actions: [
              { type: 'assignResult', params: ({ event }) => ({ response: event.output }) },
              'notifyChanged',
            ],
          },
        ],
        onError: { target: 'errored', actions: 'clearResult' },
      },
    },
    passed: {
      description: "'The individual has passed {mode}.'; the application has been refetched",
      on: { 'dialog.close': { target: 'closed' } },
    },
    failed: {
      description:
        "'The individual has failed {mode}.' with the provider's message; the application has been refetched",
      on: { 'dialog.close': { target: 'closed' } },
    },
    errored: {
      description: 'The failure panel: the call failed and no result was recorded; Try again or Close',
      on: { 'verify.retry': { target: 'consent' }, 'dialog.close': { target: 'closed' } },
    },
    closed: { type: 'final' },
  },
});

export const statechartLabels = {
  purpose:
    'Re-verify an individual with added identification, verify them anew, or screen them for PEP/Sanctions',
  spec: ['AM §2', 'AM §3', 'AM §4', 'AM §5', 'AM §6', 'AM §7', 'AM §8'],
  actors: {
    loadOptions: {
      does: 'Loads the identification the person may add',
      done: 'options loaded',
      failed: 'options could not be loaded',
    },
    verify: {
      does: 'Sends the verification to the provider',
      done: 'the server answered',
      failed: 'the request failed',
    },
  },
  guards: {
    needsOptions:
      'the mode is re-verification (the person adds identification) and its form is not loaded yet',
    hasOptions: 'ErrorNo is not negative and a form came back',
    canSubmit: 'consent is ticked and, for re-verification, the form passes its schema',
    isSuccess: 'ErrorNo is 0',
  },
  events: {
    'consent.toggle': 'the consent checkbox ticked or cleared',
    'form.change': 'a form field changed',
    'form.attempt': 'a form field left, or Enter pressed in the form',
    'verify.submit': 'Verify pressed',
    'verify.retry': 'Try again pressed',
    'dialog.close': 'Close, Cancel or Escape',
  },
} satisfies MachineLabels<typeof identityVerificationMachine>;
