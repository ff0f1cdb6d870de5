import { expect } from 'vitest';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { inviteUserMachine } from '../../src/machines/invite-user.machine.ts';
import type { ErrorNoResult, InviteUserRequest, InviteUserResponse, Role } from '../../src/schemas/users.schema.ts';
import { defineMachineModel, type TransitionEffects } from './machine-model.ts';

const roles: Role[] = [
  { TenantRoleId: 1, RoleName: 'Admin Staff (Read Only)' },
  { TenantRoleId: 2, RoleName: 'Staff' },
];
const userGuid = '6f1f5d1c-0a42-4d7e-9a43-0b8f3f525d0e';

/** SUV §5, written here: names, a valid e-mail, an 04 mobile of 10 digits and a role. */
const complete = ({ context }: AnyMachineSnapshot) =>
  context.draft.firstName !== '' && context.draft.lastName !== '' && context.draft.email === 'new@example.com' && context.draft.mobile === '0412 345 678' && context.draft.roleId !== undefined;

/** A typed value lands in the draft, marks its field, and the state stays where it was. */
const keepsTyping = (state: string) => ({ event, after }: TransitionEffects) => {
  expect(after.context.draft[event.field as string]).toBe(event.value);
  expect(after.context.touched).toContain(event.field);
  expect(after.value).toBe(state);
};

/** Leaving a field marks it (its required message shows) and changes nothing else. */
const marksLeftField = (state: string) => ({ event, before, after }: TransitionEffects) => {
  expect(after.context.touched).toContain(event.field);
  expect(after.context.draft).toEqual(before.context.draft);
  expect(after.value).toBe(state);
};

export default defineMachineModel({
  name: 'invite-user',
  machine: inviteUserMachine.provide({
    actors: {
      loadRoles: fromPromise<Role[]>(() => new Promise(() => {})),
      invite: fromPromise<InviteUserResponse, InviteUserRequest>(() => new Promise(() => {})),
      grantAccess: fromPromise<ErrorNoResult, { userId: string }>(() => new Promise(() => {})),
    },
  }),
  input: { canModifyAccess: true, australianOnly: true, accessDefault: true },
  preconditions: 'An administrator who may modify application access opens Invite User (Australian-only tenant, access on by default)',
  variants: [{ name: 'inviter without the modify-access claim', input: { canModifyAccess: false, australianOnly: true, accessDefault: true }, events: ['invite.send'] }],
  events: (state) => {
    const draft = state.context.draft;
    return [
      { type: 'xstate.done.actor.loadRoles', output: roles },
      { type: 'xstate.error.actor.loadRoles', error: new Error('503') },
      { type: 'roles.retry' },
      // Leaving the first name empty marks it, so its required message shows (AM §5).
      ...(draft.firstName === '' ? [{ type: 'field.blur', field: 'firstName' }] : []),
      // The fields fill one at a time, in order, so the plan stays small.
      ...(draft.firstName === '' ? [{ type: 'field.change', field: 'firstName', value: 'Rita' }] : []),
      ...(draft.firstName !== '' && draft.lastName === '' ? [{ type: 'field.change', field: 'lastName', value: 'Reader' }] : []),
      ...(draft.lastName !== '' && draft.email === '' ? [{ type: 'field.change', field: 'email', value: 'new@example.com' }] : []),
      ...(draft.email !== '' && draft.mobile === '' ? [{ type: 'field.change', field: 'mobile', value: '0412 345 678' }] : []),
      ...(draft.mobile !== '' && draft.roleId === undefined ? [{ type: 'role.select', roleId: 1 }, { type: 'role.select', roleId: 2 }] : []),
      { type: 'invite.send' },
      { type: 'access.toggle', value: false },
      { type: 'details.back' },
      { type: 'xstate.done.actor.invite', output: { ErrorNo: 0, Message: 'Invitation sent.', UserGuid: userGuid } },
      { type: 'xstate.done.actor.invite', output: { ErrorNo: 1, Message: 'A user with this e-mail address already exists in this tenant.', UserGuid: '' } },
      { type: 'xstate.error.actor.invite', error: new Error('503') },
      { type: 'xstate.done.actor.grantAccess', output: { ErrorNo: 0, Message: '' } },
      { type: 'xstate.done.actor.grantAccess', output: { ErrorNo: 1, Message: '' } },
      { type: 'xstate.error.actor.grantAccess', error: new Error('503') },
      { type: 'dialog.close' },
    ];
  },
  contextKey: (state) => [state.context.draft, state.context.grantAccess, state.context.resultText, state.context.roles.length],
  expectations: {
    states: {
      loadingRoles: (snapshot) => expect(snapshot.context.roles).toEqual([]),
      rolesFailed: (snapshot) => expect(snapshot.can({ type: 'roles.retry' })).toBe(true),
      editing: (snapshot) => {
        // SUV §2: Send only when both forms are valid and a role is chosen.
        expect(snapshot.can({ type: 'invite.send' })).toBe(complete(snapshot));
        expect(snapshot.hasTag('locked')).toBe(false);
      },
      'details.asking': (snapshot) => {
        // Only an inviter who may modify access, with an admin staff role, gets here.
        expect(snapshot.context.canModifyAccess).toBe(true);
        expect(snapshot.context.draft.roleId).toBe(1);
        expect(snapshot.context.invitedUserId).toBe('');
      },
      // Transient: Send decides here at once whether Additional Details comes first.
      'details.deciding': (snapshot) => expect(snapshot.context.draft.roleId).toBeDefined(),
      inviting: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        // The modal cannot be closed while the invite runs.
        expect(snapshot.can({ type: 'dialog.close' })).toBe(false);
      },
      granting: (snapshot) => {
        expect(snapshot.hasTag('locked')).toBe(true);
        expect(snapshot.context.invitedUserId).toBe(userGuid);
      },
      done: (snapshot) => {
        expect(snapshot.hasTag('locked')).toBe(true);
        expect(['Invitation sent.', 'Edit application access failed for unknown reasons.']).toContain(snapshot.context.resultText);
      },
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'loadingRoles + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'rolesFailed + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'editing + dialog.close': ({ after, started }) => {
        expect(after.status).toBe('done');
        expect(started).toEqual({});
      },
      'details.asking + dialog.close': ({ after, started }) => {
        // Closing Additional Details sends nothing.
        expect(after.status).toBe('done');
        expect(started).toEqual({});
      },
      'done + dialog.close': ({ after }) => expect(after.output).toEqual({ changed: true }),
      'loadingRoles + xstate.done.actor.loadRoles': ({ after }) => expect(after.context.roles).toEqual(roles),
      'loadingRoles + xstate.error.actor.loadRoles': ({ after }) => expect(after.value).toBe('rolesFailed'),
      'rolesFailed + roles.retry': ({ after }) => expect(after.value).toBe('loadingRoles'),
      'editing + field.change': keepsTyping('editing'),
      'editing + field.blur': marksLeftField('editing'),
      // The form is shown while the roles load and after they fail: what is typed is kept (issue 41:
      // the invite journey's blur, sent before the roles arrived, was lost one run in four).
      'loadingRoles + field.change': keepsTyping('loadingRoles'),
      'loadingRoles + field.blur': marksLeftField('loadingRoles'),
      'rolesFailed + field.change': keepsTyping('rolesFailed'),
      'rolesFailed + field.blur': marksLeftField('rolesFailed'),
      'editing + role.select': ({ event, after }) => expect(after.context.draft.roleId).toBe(event.roleId),
      'editing + invite.send': ({ before, after, started }) => {
        const adminRole = before.context.draft.roleId === 1 && before.context.canModifyAccess;
        if (adminRole) {
          // SUV §2: Next opens Additional Details; nothing is sent yet.
          expect(after.matches({ details: 'asking' })).toBe(true);
          expect(started).toEqual({});
        } else {
          expect(after.value).toBe('inviting');
          expect(started.invite).toEqual({ firstName: 'Rita', lastName: 'Reader', email: 'new@example.com', MobileNumber: '0412345678', RoleId: before.context.draft.roleId });
        }
      },
      'details.deciding + always': ({ before, after }) => {
        const adminRole = before.context.draft.roleId === 1 && before.context.canModifyAccess;
        expect(adminRole ? after.matches({ details: 'asking' }) : after.matches('inviting')).toBe(true);
      },
      'details.asking + access.toggle': ({ event, after }) => expect(after.context.grantAccess).toBe(event.value),
      'details.asking + invite.send': ({ after, started }) => {
        expect(after.value).toBe('inviting');
        expect(started.invite).toMatchObject({ MobileNumber: '0412345678', RoleId: 1 });
      },
      'details.asking + details.back': ({ after }) => expect(after.value).toBe('editing'),
      'inviting + xstate.done.actor.invite': ({ event, before, after, emitted }) => {
        const answer = event.output as InviteUserResponse;
        if (answer.ErrorNo !== 0) {
          expect(after.value).toBe('editing');
          expect(after.context.resultText).toBe(answer.Message);
          expect(emitted).toEqual([]);
          return;
        }
        expect(emitted).toEqual([{ type: 'users.changed' }]);
        const wantsGrant = before.context.grantAccess && before.context.draft.roleId === 1 && before.context.canModifyAccess;
        expect(after.value).toBe(wantsGrant ? 'granting' : 'done');
        expect(after.context.resultText).toBe('Invitation sent.');
      },
      'inviting + xstate.error.actor.invite': ({ after }) => {
        expect(after.value).toBe('editing');
        expect(after.context.resultText).toBe('An error occurred while inviting this user. Please try again later or contact support.');
      },
      'granting + xstate.done.actor.grantAccess': ({ event, after }) => {
        expect(after.value).toBe('done');
        expect(after.context.resultText).toBe((event.output as ErrorNoResult).ErrorNo === 0 ? 'Invitation sent.' : 'Edit application access failed for unknown reasons.');
      },
      'granting + xstate.error.actor.grantAccess': ({ after }) => expect(after.context.resultText).toBe('Edit application access failed for unknown reasons.'),
    },
  },
});
