import { assign, emit, fromPromise, setup } from 'xstate';
import { isTransientStatus, isTransientStepError } from '../domain/retry.ts';
import {
  actionTexts,
  personalisedMessageMaxLength,
  type ActionResult,
  type TriggerApiRequest,
  type UnlockApplicantRequest,
} from '../schemas/application-actions.schema.ts';
import {
  emailResumeLink,
  depersonalise,
  resendCompletionEmail,
  triggerApi,
  unlockApplication,
} from '../services/application-actions.service.ts';
import { resendIndividualResumeLink, unlockApplicant } from '../services/application-editors.service.ts';
import { cancelApplications } from '../services/applications.service.ts';
import { userAction, type UserActionCall } from '../services/users.service.ts';
import { HttpError } from '../services/http.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

/**
 * The call a confirm modal makes, by name with what it needs: `{id}` paths take the ApplicationID,
 * the others the ApplicationGuid (application-actions.schema.ts).
 */
export type ConfirmedCall =
  | { type: 'unlockApplication'; applicationId: string }
  | { type: 'unlockApplicant'; request: UnlockApplicantRequest }
  | { type: 'emailResumeLink'; applicationId: string }
  | { type: 'resendCompletionEmail'; applicationId: string }
  | { type: 'resendIndividualResumeLink'; applicationId: string; individualId: string }
  | { type: 'triggerApi'; request: TriggerApiRequest }
  | { type: 'cancel'; applicationGuid: string }
  | { type: 'depersonalise'; applicationGuid: string }
  /** SUV §2/§4 the users page: unlock, reactivate, deactivate, and an invitation's resend or revoke. */
  | { type: 'userAction'; action: UserActionCall; userId: string };

/** What the call's answer means to the person: done, or not done with what the server said ('' for nothing). */
export interface ActionOutcome {
  succeeded: boolean;
  message: string;
  /** A refusal that may pass if tried again (an API step's time-out); refusals are final otherwise. */
  retryable?: boolean;
}

export interface ConfirmActionInput {
  call: ConfirmedCall;
  /** AM §2 Email resume link / Resend email: the optional personalised message. */
  withMessage?: boolean;
  /** Shown on success; AM §8 'Completed successfully.' by default. */
  successText?: string;
  /** Shown when the call throws or says no without a message; AM §8 'An unknown error occurred.' by default. */
  failureText?: string;
  /** AM §4: the modal can close itself on success (the refetched detail shows the result). */
  closeOnSuccess?: boolean;
  /** AM §4 Cancel: on success the application leaves every listing, so the host leaves the detail. */
  removesApplication?: boolean;
}

export interface ConfirmActionContext {
  call: ConfirmedCall;
  withMessage: boolean;
  /** The personalised message as typed, at most `personalisedMessageMaxLength` characters. */
  message: string;
  successText: string;
  failureText: string;
  closeOnSuccess: boolean;
  removesApplication: boolean;
  /** What the result state says: the success text, the server's message or the failure text. */
  resultText: string;
  /** The action succeeded at least once: the host refetches (or leaves the detail after a cancel). */
  changed: boolean;
  /** The last failure may pass if tried again (no answer, or a server error); a refusal will not. */
  retryable: boolean;
}

export type ConfirmActionEvent =
  | { type: 'message.change'; value: string }
  | { type: 'action.confirm' }
  | { type: 'dialog.close' };

/** Heard by the hosting view: refetch the detail (AM §4), or leave it once the application is cancelled. */
export type ConfirmActionEmitted = { type: 'application.changed' } | { type: 'application.removed' };

export interface ConfirmActionOutput {
  changed: boolean;
  /** The last result shown (or, for a modal that closed itself, to be announced by the host). */
  resultText: string;
}

const ok = (result: ActionResult): ActionOutcome => ({ succeeded: result.Success, message: result.Success ? '' : result.Message });

/** The call named by `call`, its answer read as done or not done (each endpoint says it its own way). */
async function runCall(call: ConfirmedCall, message: string): Promise<ActionOutcome> {
  const email = { PersonalisedMessage: message.trim() === '' ? undefined : message.trim() };
  switch (call.type) {
    case 'unlockApplication':
      return ok(await unlockApplication(call.applicationId));
    case 'unlockApplicant':
      return ok(await unlockApplicant(call.request));
    case 'emailResumeLink':
      return ok(await emailResumeLink(call.applicationId, email));
    case 'resendCompletionEmail':
      return ok(await resendCompletionEmail(call.applicationId, email));
    case 'resendIndividualResumeLink':
      return ok(await resendIndividualResumeLink(call.applicationId, { IndividualId: call.individualId, ...email }));
    case 'triggerApi': {
      // The step's own words on success too ('Sent to core banking. Customer reference …', issue 32).
      const answer = await triggerApi(call.request);
      return { succeeded: answer.ErrorNo === 0, message: answer.Message, retryable: isTransientStepError(answer.ErrorNo) };
    }
    case 'cancel': {
      const answer = await cancelApplications([call.applicationGuid]);
      const result = answer.Results.find((item) => item.ApplicationGuid === call.applicationGuid);
      return { succeeded: result?.Success === true, message: '' };
    }
    case 'depersonalise': {
      const answer = await depersonalise(call.applicationGuid);
      return { succeeded: answer.OverallSuccess, message: answer.OverallSuccess ? '' : answer.ErrorMessage };
    }
    case 'userAction':
      return ok(await userAction(call.action, call.userId));
  }
}

/**
 * AM §2/§4/§8 the generic confirm modal: idle (the question, and the optional message for the
 * e-mails) → busy → success or failure; it closes itself on success where the caller asks. Used by
 * Unlock Application, Unlock applicant, Email Resume Link, Resend Completion Email, each API step
 * (Confirm Action), Cancel Application and Depersonalise Application, each with its own texts.
 * A failure that may pass on retry (no answer, a server error) can be tried again; a refusal cannot. Every answer tells the host, which refetches the detail (a refused
 * API step is recorded in the feed too); a call that threw changed nothing and tells nobody.
 */
export const confirmActionMachine = setup({
  types: typesOf<{
    context: ConfirmActionContext;
    events: ConfirmActionEvent;
    input: ConfirmActionInput;
    output: ConfirmActionOutput;
    emitted: ConfirmActionEmitted;
    tags: 'busy';
  }>(),
  actors: {
    runAction: fromPromise<ActionOutcome, { call: ConfirmedCall; message: string }>(({ input }) =>
      runCall(input.call, input.message),
    ),
  },
  guards: {
    isRetryable: ({ context }) => context.retryable,
    succeeded: (_, params: { outcome: ActionOutcome }) => params.outcome.succeeded,
    succeededAndClosesItself: ({ context }, params: { outcome: ActionOutcome }) =>
      params.outcome.succeeded && context.closeOnSuccess,
  },
  actions: {
    assignMessage: assign((_, params: { value: string }) => ({
      message: params.value.slice(0, personalisedMessageMaxLength),
    })),
    // The server's own words when it gave some (AM §8: the success text is the default for when it does not).
    assignSuccess: assign(({ context }, params: { outcome: ActionOutcome }) => ({
      resultText: params.outcome.message.trim() === '' ? context.successText : params.outcome.message,
      changed: true,
    })),
    // The server's own words when it gave a reason; the caller's failure text when it gave none.
    assignRefusal: assign(({ context }, params: { outcome: ActionOutcome }) => ({
      resultText: params.outcome.message.trim() === '' ? context.failureText : params.outcome.message,
      retryable: params.outcome.retryable === true,
    })),
    // A refusal the server answered with a status (400, 403, 404, 409) stays a refusal when tried again.
    assignFailure: assign(({ context }, params: { error: unknown }) => ({
      resultText: context.failureText,
      retryable: isTransientStatus(params.error instanceof HttpError ? params.error.status : undefined),
    })),
    notifyRecorded: emit({ type: 'application.changed' as const }),
    notifyChanged: emit(({ context }) =>
      context.removesApplication ? { type: 'application.removed' as const } : { type: 'application.changed' as const },
    ),
  },
}).createMachine({
  id: 'confirmAction',
  initial: 'idle',
  context: ({ input }) => ({
    call: input.call,
    withMessage: input.withMessage ?? false,
    message: '',
    successText: input.successText ?? actionTexts.completed,
    failureText: input.failureText ?? actionTexts.unknownError,
    closeOnSuccess: input.closeOnSuccess ?? false,
    removesApplication: input.removesApplication ?? false,
    resultText: '',
    changed: false,
    retryable: false,
  }),
  output: ({ context }) => ({ changed: context.changed, resultText: context.resultText }),
  states: {
    idle: {
      description: 'The question (and, for the e-mails, the optional personalised message), Confirm and Close',
      on: {
        'message.change': { actions: { type: 'assignMessage', params: ({ event }) => ({ value: event.value }) } },
        'action.confirm': { target: 'busy' },
        'dialog.close': { target: 'closed' },
      },
    },
    busy: {
      description: 'The action runs; Confirm shows progress and the modal cannot be closed',
      tags: ['busy'],
      invoke: {
        id: 'runAction',
        src: 'runAction',
        input: ({ context }) => ({ call: context.call, message: context.withMessage ? context.message : '' }),
        onDone: [
          {
            guard: { type: 'succeededAndClosesItself', params: ({ event }) => ({ outcome: event.output }) },
            target: 'closed',
            actions: [{ type: 'assignSuccess', params: ({ event }) => ({ outcome: event.output }) }, 'notifyChanged'],
          },
          {
            guard: { type: 'succeeded', params: ({ event }) => ({ outcome: event.output }) },
            target: 'succeeded',
            actions: [{ type: 'assignSuccess', params: ({ event }) => ({ outcome: event.output }) }, 'notifyChanged'],
          },
          // An answered refusal may still have been recorded (a refused API step is in the feed): refetch.
          {
            target: 'failed',
            actions: [{ type: 'assignRefusal', params: ({ event }) => ({ outcome: event.output }) }, 'notifyRecorded'],
          },
        ],
        onError: { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    succeeded: {
      description: "The success text ('Completed successfully.' unless the action has its own) and Close",
      on: { 'dialog.close': { target: 'closed' } },
    },
    failed: {
      description:
        "The server's reason, or the failure text ('An unknown error occurred.' unless the action has its own); Close, and Try again where trying again may help (no answer, or a server error)",
      on: {
        'action.confirm': { guard: 'isRetryable', target: 'busy' },
        'dialog.close': { target: 'closed' },
      },
    },
    closed: {
      type: 'final',
      description: 'The modal is gone: the detail has refetched after a change, or, after a cancel, the list is shown',
    },
  },
});

export const statechartLabels = {
  purpose: 'Confirm one action on an application, run it, and say how it went (the generic confirm modal)',
  spec: ['AM §2', 'AM §4', 'AM §6', 'AM §8'],
  actors: {
    runAction: {
      does: 'Runs the action the modal was opened for (unlock, e-mail, API step, cancel, depersonalise)',
      done: 'the server answered',
      failed: 'the call failed or answered nothing',
    },
  },
  guards: {
    isRetryable: 'the failure may pass if tried again (no answer, or a server error)',
    succeeded: 'the server did it',
    succeededAndClosesItself: 'the server did it and this modal closes itself on success',
  },
  events: {
    'message.change': 'the personalised message typed',
    'action.confirm': 'Confirm (or Try again) pressed',
    'dialog.close': 'Close or Escape',
  },
} satisfies MachineLabels<typeof confirmActionMachine>;
