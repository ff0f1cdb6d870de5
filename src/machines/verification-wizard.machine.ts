import { assign, fromPromise, setup } from 'xstate';
import type { IndividualVerificationType, VerifyResponse } from '../schemas/verifications.schema.ts';
import { individualVerificationTypes } from '../schemas/verifications.schema.ts';
import { biometricVerifyRequest, canContinue, formFieldOf, individualVerifyRequest } from '../domain/verifications.ts';
import { loadDetailsForm, loadTypeForm, verifyIndividual, type LoadedForm } from '../services/verifications.service.ts';
import { HttpError } from '../services/http.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

type FormData = Record<string, unknown>;

export interface VerificationWizardContext {
  typeForm: LoadedForm | undefined;
  type: IndividualVerificationType | undefined;
  consent: boolean;
  detailsForm: LoadedForm | undefined;
  formData: FormData;
  /** The form passes its schema (the view's rjsf validator, the server's compiled one). */
  valid: boolean;
  /** SUV §5: errors show live after the first attempt. */
  attempted: boolean;
  /** A field the server refused, by form path ('IndividualDetails.FirstName' → its message). */
  serverErrors: Record<string, string>;
  result: VerifyResponse | undefined;
}

export type VerificationWizardEvent =
  | { type: 'type.change'; value: string }
  | { type: 'consent.change'; checked: boolean }
  | { type: 'step.continue' }
  | { type: 'details.change'; formData: FormData; valid: boolean }
  | { type: 'details.submit' }
  | { type: 'wizard.cancel' };

const isType = (value: string): value is IndividualVerificationType => individualVerificationTypes.some((type) => type === value);

/** The request the form maps to (SUV §3), by type. */
export const requestFor = (type: IndividualVerificationType, formData: FormData) =>
  type === 'BiometricVerification' ? biometricVerifyRequest(formData) : individualVerifyRequest(formData);

/** A 400 naming a request field ('individual.firstName: is required') as the form field's error. */
export function serverFieldError(type: IndividualVerificationType | undefined, error: unknown): Record<string, string> | undefined {
  if (!type || !(error instanceof HttpError) || error.status !== 400) return undefined;
  const body = error.body;
  const message = typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : '';
  const match = /^([A-Za-z.]+): (.+)$/.exec(message);
  const field = match?.[1] ? formFieldOf(type, match[1]) : undefined;
  return field && match?.[2] ? { [field]: match[2] } : undefined;
}

/**
 * SUV §2 Individual verification wizard, §4 wizard transitions: 'Verification Type' (server form;
 * consent unless biometric; Continue by the spec's rule) → 'Enter Details' (server form; errors
 * live after the first attempt; no call while invalid; a field the server refuses is shown on it) →
 * 'Results' (SUV §8 messages by type and success). Cancel or New Search closes it; the host then
 * shows the Individual list, refreshed.
 */
export const verificationWizardMachine = setup({
  types: typesOf<{ context: VerificationWizardContext; events: VerificationWizardEvent; output: { refresh: boolean }; tags: 'busy' }>(),
  actors: {
    loadTypeForm: fromPromise<LoadedForm>(() => loadTypeForm()),
    loadDetailsForm: fromPromise<LoadedForm, { type: IndividualVerificationType }>(({ input }) => loadDetailsForm(input.type)),
    verify: fromPromise<VerifyResponse, { type: IndividualVerificationType; formData: FormData }>(({ input }) => verifyIndividual(requestFor(input.type, input.formData))),
  },
  guards: {
    canContinue: ({ context }) => canContinue(context.type, context.consent),
    isValid: ({ context }) => context.valid,
    isFieldRefusal: ({ context }, params: { error: unknown }) => serverFieldError(context.type, params.error) !== undefined,
  },
  actions: {
    assignTypeForm: assign((_, params: { form: LoadedForm }) => ({ typeForm: params.form })),
    assignType: assign((_, params: { value: string }) => ({ type: isType(params.value) ? params.value : undefined })),
    assignConsent: assign((_, params: { checked: boolean }) => ({ consent: params.checked })),
    assignDetailsForm: assign((_, params: { form: LoadedForm }) => ({ detailsForm: params.form, formData: params.form.data, valid: false, attempted: false, serverErrors: {} })),
    // A change clears the server's refusal: it was about the data as it was sent.
    assignDetails: assign((_, params: { formData: FormData; valid: boolean }) => ({ formData: params.formData, valid: params.valid, serverErrors: {} })),
    markAttempted: assign({ attempted: true }),
    assignServerErrors: assign(({ context }, params: { error: unknown }) => ({ serverErrors: serverFieldError(context.type, params.error) ?? {} })),
    assignResult: assign((_, params: { result: VerifyResponse }) => ({ result: params.result })),
    // SUV §8: the success flag drives the message; a call that failed outright reads as not succeeded.
    assignFailure: assign({
      result: () => ({ requestId: '', requestDateTime: '', responseSucceeded: false, overallResult: '', provider: '', providerReference: '', reportLink: '' }),
    }),
  },
}).createMachine({
  id: 'verificationWizard',
  initial: 'loadingType',
  context: { typeForm: undefined, type: undefined, consent: false, detailsForm: undefined, formData: {}, valid: false, attempted: false, serverErrors: {}, result: undefined },
  output: () => ({ refresh: true }),
  on: { 'wizard.cancel': { target: '.closed' } },
  states: {
    loadingType: {
      description: "Step 'Verification Type': the form definition loads",
      tags: ['busy'],
      invoke: {
        id: 'loadTypeForm',
        src: 'loadTypeForm',
        onDone: { target: 'choosingType', actions: { type: 'assignTypeForm', params: ({ event }) => ({ form: event.output }) } },
        onError: { target: 'typeFormFailed' },
      },
    },
    typeFormFailed: { description: 'SUV §8: the form definition failed to load, so nothing is rendered; Cancel only' },
    choosingType: {
      description: "Step 'Verification Type': the server's form, 'Authorisation Consent' unless biometric, Continue and Cancel",
      on: {
        'type.change': { actions: { type: 'assignType', params: ({ event }) => ({ value: event.value }) } },
        'consent.change': { actions: { type: 'assignConsent', params: ({ event }) => ({ checked: event.checked }) } },
        'step.continue': { guard: 'canContinue', target: 'loadingDetails' },
      },
    },
    loadingDetails: {
      description: "Step 'Enter Details': the details form for the type loads",
      tags: ['busy'],
      invoke: {
        id: 'loadDetailsForm',
        src: 'loadDetailsForm',
        input: ({ context }) => ({ type: context.type ?? 'IndividualVerification' }),
        onDone: { target: 'enteringDetails', actions: { type: 'assignDetailsForm', params: ({ event }) => ({ form: event.output }) } },
        onError: { target: 'detailsFormFailed' },
      },
    },
    detailsFormFailed: { description: 'SUV §8: the details form failed to load, so nothing is rendered; Cancel only' },
    enteringDetails: {
      description: "Step 'Enter Details': the server's form (errors live after the first attempt), Verify and Cancel",
      on: {
        'details.change': { actions: { type: 'assignDetails', params: ({ event }) => ({ formData: event.formData, valid: event.valid }) } },
        'details.submit': [{ guard: 'isValid', target: 'verifying', actions: 'markAttempted' }, { actions: 'markAttempted' }],
      },
    },
    verifying: {
      description: 'The verification request is sent; the form is disabled',
      tags: ['busy'],
      invoke: {
        id: 'verify',
        src: 'verify',
        input: ({ context }) => ({ type: context.type ?? 'IndividualVerification', formData: context.formData }),
        onDone: { target: 'results', actions: { type: 'assignResult', params: ({ event }) => ({ result: event.output }) } },
        onError: [
          {
            guard: { type: 'isFieldRefusal', params: ({ event }) => ({ error: event.error }) },
            target: 'enteringDetails',
            actions: { type: 'assignServerErrors', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'results', actions: 'assignFailure' },
        ],
      },
    },
    results: {
      description: "Step 'Results': the message for the type and outcome (biometric: the 48-hour advice); New Search",
    },
    closed: { type: 'final', description: 'The wizard is gone; the Individual list shows, refreshed' },
  },
});

export const statechartLabels = {
  purpose: 'Verify an individual electronically or send a biometric SMS invite (the three-step wizard)',
  spec: ['SUV §2', 'SUV §3', 'SUV §4', 'SUV §5', 'SUV §8'],
  actors: {
    loadTypeForm: { does: 'Loads the step 1 form (GET /individual/form)', done: 'form loaded', failed: 'form failed to load' },
    loadDetailsForm: { does: 'Loads the step 2 form (GET /individual/details)', done: 'form loaded', failed: 'form failed to load' },
    verify: { does: 'Sends the verify request (POST /individual/verify)', done: 'answered', failed: 'refused or failed' },
  },
  guards: {
    canContinue: 'the type is biometric, or a type is chosen and consent ticked',
    isValid: 'the form passes its schema',
    isFieldRefusal: 'the server refused a field of the form (400 naming it)',
  },
  events: {
    'type.change': 'a verification type chosen',
    'consent.change': "'Authorisation Consent' ticked or cleared",
    'step.continue': 'Continue pressed',
    'details.change': 'the details form changed',
    'details.submit': 'Verify pressed',
    'wizard.cancel': 'Cancel or New Search pressed',
  },
} satisfies MachineLabels<typeof verificationWizardMachine>;
