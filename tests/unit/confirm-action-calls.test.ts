import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { confirmActionMachine, type ConfirmActionInput } from '../../src/machines/confirm-action.machine.ts';

/**
 * The confirm modal's one actor with the real call behind it (the services answer as the server
 * would): each endpoint's answer read as done or not done, the message sent only where offered.
 * The path tests cover the statechart with the actor replaced; this covers what the actor does.
 */
const services = vi.hoisted(() => ({
  unlockApplication: vi.fn(),
  emailResumeLink: vi.fn(),
  resendCompletionEmail: vi.fn(),
  triggerApi: vi.fn(),
  depersonalise: vi.fn(),
  unlockApplicant: vi.fn(),
  resendIndividualResumeLink: vi.fn(),
  cancelApplications: vi.fn(),
}));
vi.mock('../../src/services/application-actions.service.ts', () => ({
  unlockApplication: services.unlockApplication,
  emailResumeLink: services.emailResumeLink,
  resendCompletionEmail: services.resendCompletionEmail,
  triggerApi: services.triggerApi,
  depersonalise: services.depersonalise,
}));
vi.mock('../../src/services/application-editors.service.ts', () => ({
  unlockApplicant: services.unlockApplicant,
  resendIndividualResumeLink: services.resendIndividualResumeLink,
}));
vi.mock('../../src/services/applications.service.ts', () => ({ cancelApplications: services.cancelApplications }));

const guid = '0b8f3f52-5d0e-4d7e-9a43-6f1f5d1c0a42';

async function run(input: ConfirmActionInput, message?: string) {
  const actor = createActor(confirmActionMachine, { input }).start();
  if (message !== undefined) actor.send({ type: 'message.change', value: message });
  actor.send({ type: 'action.confirm' });
  const snapshot = await waitFor(actor, (state) => !state.hasTag('busy'));
  return { state: String(snapshot.value), text: snapshot.context.resultText };
}

beforeEach(() => vi.resetAllMocks());

describe('the confirm modal runs the call its input names', () => {
  it('unlocks by ApplicationID; Success false shows the server Message', async () => {
    services.unlockApplication.mockResolvedValueOnce({ Success: true, Message: 'Unlocked.' });
    expect(await run({ call: { type: 'unlockApplication', applicationId: '1042' } })).toEqual({
      state: 'succeeded',
      text: 'Completed successfully.',
    });
    expect(services.unlockApplication).toHaveBeenCalledWith('1042');
    services.unlockApplication.mockResolvedValueOnce({ Success: false, Message: 'Only a locked application can be unlocked.' });
    expect((await run({ call: { type: 'unlockApplication', applicationId: '1042' } })).text).toBe(
      'Only a locked application can be unlocked.',
    );
  });

  it('sends the trimmed personalised message with the e-mails, and none when it is blank', async () => {
    services.emailResumeLink.mockResolvedValue({ Success: true, Message: '' });
    const email: ConfirmActionInput = { call: { type: 'emailResumeLink', applicationId: '7' }, withMessage: true, successText: 'Email has been sent.' };
    expect(await run(email, '  See you soon  ')).toEqual({ state: 'succeeded', text: 'Email has been sent.' });
    expect(services.emailResumeLink).toHaveBeenLastCalledWith('7', { PersonalisedMessage: 'See you soon' });
    await run(email, '   ');
    expect(services.emailResumeLink).toHaveBeenLastCalledWith('7', { PersonalisedMessage: undefined });
    services.resendCompletionEmail.mockResolvedValue({ Success: true, Message: '' });
    await run({ call: { type: 'resendCompletionEmail', applicationId: '8' }, withMessage: true }, 'Thanks');
    expect(services.resendCompletionEmail).toHaveBeenLastCalledWith('8', { PersonalisedMessage: 'Thanks' });
  });

  it('never sends a message typed into a modal that does not offer one', async () => {
    services.resendIndividualResumeLink.mockResolvedValue({ Success: true, Message: '' });
    await run({ call: { type: 'resendIndividualResumeLink', applicationId: '9', individualId: 'p1' } }, 'ignored');
    expect(services.resendIndividualResumeLink).toHaveBeenLastCalledWith('9', { IndividualId: 'p1', PersonalisedMessage: undefined });
  });

  it('unlocks an applicant with the request as given', async () => {
    services.unlockApplicant.mockResolvedValue({ Success: true, Message: '' });
    const request = { ApplicationId: guid, IndividualId: 'p2', InstanceName: 'demo' };
    expect((await run({ call: { type: 'unlockApplicant', request } })).state).toBe('succeeded');
    expect(services.unlockApplicant).toHaveBeenCalledWith(request);
  });

  it('reads an API step by ErrorNo: 0 is success, any other shows its Message', async () => {
    const request = { ApplicationGuid: guid, ApiName: 'CoreBanking' };
    // Issue 32: the step's own words on success; the default only when it gives none.
    services.triggerApi.mockResolvedValueOnce({ ErrorNo: 0, Message: 'Sent.' });
    expect(await run({ call: { type: 'triggerApi', request } })).toEqual({ state: 'succeeded', text: 'Sent.' });
    services.triggerApi.mockResolvedValueOnce({ ErrorNo: 0, Message: '' });
    expect(await run({ call: { type: 'triggerApi', request } })).toEqual({ state: 'succeeded', text: 'Completed successfully.' });
    services.triggerApi.mockResolvedValueOnce({ ErrorNo: 1001, Message: 'Refused: duplicate.' });
    expect(await run({ call: { type: 'triggerApi', request } })).toEqual({ state: 'failed', text: 'Refused: duplicate.' });
    // AM §8: a call that returns nothing (the wrapper rejects an empty answer) is the unknown error.
    services.triggerApi.mockRejectedValueOnce(new Error('empty answer'));
    expect(await run({ call: { type: 'triggerApi', request } })).toEqual({ state: 'failed', text: 'An unknown error occurred.' });
  });

  it('reads a cancel by this application’s own result', async () => {
    const input: ConfirmActionInput = { call: { type: 'cancel', applicationGuid: guid }, successText: 'Application(s) cancelled' };
    services.cancelApplications.mockResolvedValueOnce({ Results: [{ ApplicationGuid: guid, Success: true }] });
    expect(await run(input)).toEqual({ state: 'succeeded', text: 'Application(s) cancelled' });
    expect(services.cancelApplications).toHaveBeenCalledWith([guid]);
    services.cancelApplications.mockResolvedValueOnce({ Results: [{ ApplicationGuid: 'another', Success: true }] });
    expect((await run(input)).state).toBe('failed');
    services.cancelApplications.mockResolvedValueOnce({ Results: [{ ApplicationGuid: guid, Success: false }] });
    expect(await run(input)).toEqual({ state: 'failed', text: 'An unknown error occurred.' });
  });

  it('reads depersonalise by OverallSuccess, its ErrorMessage or the spec failure text', async () => {
    const input: ConfirmActionInput = {
      call: { type: 'depersonalise', applicationGuid: guid },
      successText: 'Depersonalisation completed successfully.',
      failureText: 'The request failed for unknown reasons.',
    };
    services.depersonalise.mockResolvedValueOnce({ OverallSuccess: true, ErrorMessage: '' });
    expect(await run(input)).toEqual({ state: 'succeeded', text: 'Depersonalisation completed successfully.' });
    expect(services.depersonalise).toHaveBeenCalledWith(guid);
    services.depersonalise.mockResolvedValueOnce({ OverallSuccess: false, ErrorMessage: 'Documents could not be removed.' });
    expect((await run(input)).text).toBe('Documents could not be removed.');
    services.depersonalise.mockResolvedValueOnce({ OverallSuccess: false, ErrorMessage: '' });
    expect((await run(input)).text).toBe('The request failed for unknown reasons.');
    services.depersonalise.mockRejectedValueOnce(new Error('500'));
    expect((await run(input)).text).toBe('The request failed for unknown reasons.');
  });
});
