import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { twoStepSetupMachine } from '../../src/machines/two-step-setup.machine.ts';
import type { ConfirmMfa, InitiateMfa } from '../../src/schemas/sign-in.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const never = <T,>() => new Promise<T>(() => {});
const codes = Array.from({ length: 10 }, (_, i) => `AAAAA-BBBB${i}`);

export default defineMachineModel({
  name: 'two-step-setup',
  machine: twoStepSetupMachine.provide({
    actors: {
      initiateMfa: fromPromise<InitiateMfa>(() => never()),
      drawQrCode: fromPromise<string, { uri: string }>(() => never()),
      confirmMfa: fromPromise<ConfirmMfa, { code: string }>(() => never()),
    },
  }),
  events: [
    { type: 'dialog.open' },
    { type: 'dialog.close' },
    { type: 'xstate.done.actor.initiateMfa', output: { Secret: 'JBSWY3DPEHPK3PXP', OtpAuthUri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP', Replacing: true } },
    { type: 'xstate.error.actor.initiateMfa', error: new Error('503') },
    { type: 'xstate.done.actor.drawQrCode', output: 'data:image/png;base64,AAAA' },
    { type: 'code.change', value: '123 456' },
    { type: 'code.submit' },
    { type: 'xstate.done.actor.confirmMfa', output: { Success: true, Message: 'Two-step verification is on.', RecoveryCodes: codes } },
    { type: 'xstate.done.actor.confirmMfa', output: { Success: false, Message: 'That code is not correct.', RecoveryCodes: [] } },
    { type: 'xstate.error.actor.confirmMfa', error: new Error('503') },
    { type: 'setup.retry' },
  ],
  contextKey: ({ context }) => ({ code: context.code }),
  expectations: {
    states: {
      closed: (snapshot) => {
        expect(snapshot.hasTag('open')).toBe(false);
        expect(snapshot.context.recoveryCodes).toEqual([]);
        expect(snapshot.context.secret).toBe('');
        expect(snapshot.context.replacing).toBe(false);
      },
      starting: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      showing: (snapshot) => {
        expect(snapshot.hasTag('open')).toBe(true);
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.secret).toBe('JBSWY3DPEHPK3PXP');
      },
      confirming: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.code).toBe('123456');
      },
      showingRecoveryCodes: (snapshot) => {
        expect(snapshot.context.recoveryCodes).toHaveLength(10);
        // The secret leaves memory once the codes are shown.
        expect(snapshot.context.secret).toBe('');
      },
      failed: (snapshot) => expect(snapshot.hasTag('open')).toBe(true),
    },
    transitions: {
      'closed + dialog.open': ({ after, started }) => {
        expect(after.matches('starting')).toBe(true);
        expect(Object.keys(started)).toEqual(['initiateMfa']);
      },
      'starting + xstate.done.actor.initiateMfa': ({ after, started }) => {
        expect(after.matches('showing')).toBe(true);
        expect(after.context.replacing).toBe(true);
        expect(started.drawQrCode).toEqual({ uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' });
      },
      'starting + xstate.error.actor.initiateMfa': ({ after }) => expect(after.matches('failed')).toBe(true),
      'showing + xstate.done.actor.drawQrCode': ({ after }) => expect(after.context.qrCode).toBe('data:image/png;base64,AAAA'),
      // Spaces typed between the groups of digits are dropped; an error is cleared by typing.
      'showing + code.change': ({ after }) => {
        expect(after.context.code).toBe('123456');
        expect(after.context.error).toBeUndefined();
      },
      'showing + code.submit': ({ before, after, started }) => {
        if (before.context.code === '123456') {
          expect(after.matches('confirming')).toBe(true);
          expect(started.confirmMfa).toEqual({ code: '123456' });
        } else {
          expect(after.matches('showing')).toBe(true);
        }
      },
      'showing + dialog.close': ({ after }) => expect(after.matches('closed')).toBe(true),
      'confirming + xstate.done.actor.confirmMfa': ({ event, after }) => {
        if ('output' in event && JSON.stringify(event.output).includes('"Success":true')) {
          expect(after.matches('showingRecoveryCodes')).toBe(true);
          expect(after.context.recoveryCodes).toEqual(codes);
        } else {
          expect(after.matches('showing')).toBe(true);
          expect(after.context.error).toBe('That code is not correct.');
          expect(after.context.code).toBe('');
        }
      },
      'confirming + xstate.error.actor.confirmMfa': ({ after }) => expect(after.matches('failed')).toBe(true),
      'showingRecoveryCodes + dialog.close': ({ after }) => expect(after.matches('closed')).toBe(true),
      'failed + setup.retry': ({ after, started }) => {
        expect(after.matches('starting')).toBe(true);
        expect(Object.keys(started)).toEqual(['initiateMfa']);
      },
      'failed + dialog.close': ({ after }) => expect(after.matches('closed')).toBe(true),
    },
  },
});
