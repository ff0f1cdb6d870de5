import { createActorContext } from '@xstate/react';
import { assign, fromPromise, setup } from 'xstate';
import { isTotpCode, normaliseTotpCode } from '../domain/two-step.ts';
import type { ConfirmMfa, InitiateMfa } from '../schemas/sign-in.schema.ts';
import { confirmMfa, initiateMfa, qrCodeDataUrl } from '../services/two-step.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface TwoStepSetupContext {
  secret: string;
  otpAuthUri: string;
  /** The QR code image; empty until the QR library has drawn it (the key is shown meanwhile). */
  qrCode: string;
  code: string;
  error: string | undefined;
  recoveryCodes: readonly string[];
  /** The account has two-step verification already: a confirmed code replaces it (issue 39 point 16). */
  replacing: boolean;
}

export type TwoStepSetupEvent =
  | { type: 'dialog.open' }
  | { type: 'dialog.close' }
  | { type: 'code.change'; value: string }
  | { type: 'code.submit' }
  | { type: 'setup.retry' };

const cleared: TwoStepSetupContext = { secret: '', otpAuthUri: '', qrCode: '', code: '', error: undefined, recoveryCodes: [], replacing: false };

export const setupFailedMessage = 'Two-step verification could not be set up. Please try again.';
export const replacingMessage =
  'Two-step verification is already on. A code from this new key replaces your current authenticator and recovery codes; Cancel keeps them.';

/**
 * 'Set up two-step verification' from the account menu (issue 31): a new secret as a QR code and a
 * key, confirmed by one code from the app, then ten recovery codes shown once. The dialog and the
 * QR library load only when it opens.
 */
export const twoStepSetupMachine = setup({
  types: typesOf<{ context: TwoStepSetupContext; events: TwoStepSetupEvent; tags: 'busy' | 'open' }>(),
  actors: {
    initiateMfa: fromPromise<InitiateMfa>(() => initiateMfa()),
    drawQrCode: fromPromise<string, { uri: string }>(({ input }) => qrCodeDataUrl(input.uri)),
    confirmMfa: fromPromise<ConfirmMfa, { code: string }>(({ input }) => confirmMfa(input.code)),
  },
  guards: {
    isCodeComplete: ({ context }) => isTotpCode(context.code),
    isConfirmed: (_, params: { result: ConfirmMfa }) => params.result.Success,
  },
  actions: {
    clear: assign(() => cleared),
    assignSecret: assign((_, params: { started: InitiateMfa }) => ({
      secret: params.started.Secret,
      otpAuthUri: params.started.OtpAuthUri,
      replacing: params.started.Replacing,
    })),
    assignQrCode: assign((_, params: { qrCode: string }) => ({ qrCode: params.qrCode })),
    assignCode: assign((_, params: { value: string }) => ({ code: params.value, error: undefined })),
    assignRefusal: assign((_, params: { result: ConfirmMfa }) => ({ error: params.result.Message, code: '' })),
    assignRecoveryCodes: assign((_, params: { result: ConfirmMfa }) => ({
      recoveryCodes: params.result.RecoveryCodes,
      secret: '',
      otpAuthUri: '',
      qrCode: '',
    })),
  },
}).createMachine({
  id: 'twoStepSetup',
  initial: 'closed',
  context: cleared,
  states: {
    closed: {
      description: 'The account menu offers Set up two-step verification',
      on: { 'dialog.open': { target: 'starting', actions: 'clear' } },
    },
    starting: {
      description: 'Asking the server for a new secret',
      tags: ['busy', 'open'],
      invoke: {
        id: 'initiateMfa',
        src: 'initiateMfa',
        onDone: { target: 'showing', actions: { type: 'assignSecret', params: ({ event }) => ({ started: event.output }) } },
        onError: { target: 'failed' },
      },
    },
    showing: {
      description: 'The QR code and the key, and a field for one code from the app',
      tags: ['open'],
      invoke: {
        id: 'drawQrCode',
        src: 'drawQrCode',
        input: ({ context }) => ({ uri: context.otpAuthUri }),
        onDone: { actions: { type: 'assignQrCode', params: ({ event }) => ({ qrCode: event.output }) } },
      },
      on: {
        'code.change': { actions: { type: 'assignCode', params: ({ event }) => ({ value: normaliseTotpCode(event.value) }) } },
        'code.submit': { guard: 'isCodeComplete', target: 'confirming' },
        'dialog.close': { target: 'closed', actions: 'clear' },
      },
    },
    confirming: {
      description: 'Checking the code with the server',
      tags: ['busy', 'open'],
      invoke: {
        id: 'confirmMfa',
        src: 'confirmMfa',
        input: ({ context }) => ({ code: context.code }),
        onDone: [
          {
            guard: { type: 'isConfirmed', params: ({ event }) => ({ result: event.output }) },
            target: 'showingRecoveryCodes',
            actions: { type: 'assignRecoveryCodes', params: ({ event }) => ({ result: event.output }) },
          },
          { target: 'showing', actions: { type: 'assignRefusal', params: ({ event }) => ({ result: event.output }) } },
        ],
        onError: { target: 'failed' },
      },
    },
    showingRecoveryCodes: {
      description: 'Two-step verification is on: ten recovery codes, shown once, to copy or download',
      tags: ['open'],
      on: { 'dialog.close': { target: 'closed', actions: 'clear' } },
    },
    failed: {
      description: `'${setupFailedMessage}'`,
      tags: ['open'],
      on: {
        'setup.retry': { target: 'starting' },
        'dialog.close': { target: 'closed', actions: 'clear' },
      },
    },
  },
});

/** Provided by the account menu, around the menu and the dialog it opens. */
export const TwoStepSetupContext = createActorContext(twoStepSetupMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'Sets up two-step verification from the account menu: a QR code and key, one code to confirm, then ten recovery codes shown once.',
  spec: ['AM §7'],
  actors: {
    initiateMfa: { does: 'Asks for a new secret (POST /account/initiatemfa)', done: 'secret received', failed: 'secret could not be made' },
    drawQrCode: { does: 'Draws the QR code (the QR library loads now)', done: 'QR code drawn', failed: 'QR code could not be drawn' },
    confirmMfa: { does: 'Checks the code (POST /account/confirmmfa)', done: 'code checked', failed: 'code could not be checked' },
  },
  guards: {
    isCodeComplete: 'the code has six digits',
    isConfirmed: 'the code was right',
  },
  events: {
    'dialog.open': 'Set up two-step verification chosen',
    'dialog.close': 'dialog closed',
    'code.change': 'code typed',
    'code.submit': 'Confirm pressed',
    'setup.retry': 'Try again pressed',
  },
} satisfies MachineLabels<typeof twoStepSetupMachine>;
