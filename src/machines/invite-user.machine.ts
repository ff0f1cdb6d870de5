import { assign, emit, fromPromise, setup } from 'xstate';
import {
  inviteTexts,
  permissionTexts,
  type ErrorNoResult,
  type InviteUserRequest,
  type InviteUserResponse,
  type Role,
} from '../schemas/users.schema.ts';
import { inviteUser, listRoles, modifyPermissions } from '../services/users.service.ts';
import {
  emptyInviteDraft,
  inviteDraftComplete,
  mobileNumberToSend,
  needsAdditionalDetails,
  phoneInputOf,
  type InviteDraft,
} from '../domain/invite-form.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface InviteUserInput {
  /** The inviter holds usermanagement.permissions.editapplicationaccess. */
  canModifyAccess: boolean;
  australianOnly: boolean;
  /** NewUserAppAccessToggleDefaultON. */
  accessDefault: boolean;
}

export type InviteField = 'firstName' | 'lastName' | 'email' | 'mobile' | 'country';

export interface InviteUserContext extends InviteUserInput {
  draft: InviteDraft;
  roles: Role[];
  /** Fields the person has changed: only they show their error. */
  touched: InviteField[];
  grantAccess: boolean;
  invitedUserId: string;
  /** What the modal says about the last send: the spec's text for each outcome ('' before any). */
  resultText: string;
  succeeded: boolean;
  /** An invite was made: the host reloads the list. */
  changed: boolean;
}

export type InviteUserEvent =
  | { type: 'field.change'; field: InviteField; value: string }
  | { type: 'field.blur'; field: InviteField }
  | { type: 'role.select'; roleId: number }
  | { type: 'access.toggle'; value: boolean }
  | { type: 'invite.send' }
  | { type: 'details.back' }
  | { type: 'roles.retry' }
  | { type: 'dialog.close' };

export type InviteUserEmitted = { type: 'users.changed' };

const roleNameOf = (context: Pick<InviteUserContext, 'roles' | 'draft'>) =>
  context.roles.find((role) => role.TenantRoleId === context.draft.roleId)?.RoleName;

const requestOf = (context: InviteUserContext): InviteUserRequest => ({
  firstName: context.draft.firstName.trim(),
  lastName: context.draft.lastName.trim(),
  email: context.draft.email.trim(),
  MobileNumber: mobileNumberToSend(context.draft.mobile, context.draft.country, context.australianOnly),
  RoleId: context.draft.roleId ?? 0,
});

type EventOf<T extends InviteUserEvent['type']> = { event: Extract<InviteUserEvent, { type: T }> };

/**
 * Typing in the names, e-mail and phone, and leaving a field: the form is shown (and enabled) while the
 * roles load and after they fail, so those states keep the input too (a quick typist's first
 * keystrokes, or the blur that shows a required field's message, were dropped while roles loaded).
 */
const draftEdits = {
  'field.change': {
    actions: { type: 'assignField', params: ({ event }: EventOf<'field.change'>) => ({ field: event.field, value: event.value }) },
  },
  'field.blur': { actions: { type: 'markTouched', params: ({ event }: EventOf<'field.blur'>) => ({ field: event.field }) } },
} as const;

/**
 * SUV §2/§5/§8 the Invite User modal with the invite-with-access workflow: the two forms, Send
 * (or Next, for an inviter who may modify access choosing an admin staff role, which opens
 * Additional Details with the access toggle; nothing is sent before), then the invite, then the
 * grant if wanted; afterwards the form locks and the button reads Close.
 */
export const inviteUserMachine = setup({
  types: typesOf<{
    context: InviteUserContext;
    events: InviteUserEvent;
    input: InviteUserInput;
    emitted: InviteUserEmitted;
    output: { changed: boolean };
    tags: 'busy' | 'locked';
  }>(),
  actors: {
    loadRoles: fromPromise<Role[]>(() => listRoles()),
    invite: fromPromise<InviteUserResponse, InviteUserRequest>(({ input }) => inviteUser(input)),
    grantAccess: fromPromise<ErrorNoResult, { userId: string }>(({ input }) =>
      modifyPermissions(input.userId, 'Grant'),
    ),
  },
  guards: {
    canSend: ({ context }) => inviteDraftComplete(context.draft, context.australianOnly),
    needsDetails: ({ context }) => needsAdditionalDetails(roleNameOf(context), context.canModifyAccess),
    invited: (_, params: { answer: InviteUserResponse }) => params.answer.ErrorNo === 0,
    invitedAndGrantWanted: ({ context }, params: { answer: InviteUserResponse }) =>
      params.answer.ErrorNo === 0 &&
      context.grantAccess &&
      needsAdditionalDetails(roleNameOf(context), context.canModifyAccess),
    granted: (_, params: { answer: ErrorNoResult }) => params.answer.ErrorNo === 0,
  },
  actions: {
    assignRoles: assign((_, params: { roles: Role[] }) => ({ roles: params.roles })),
    assignField: assign(({ context }, params: { field: InviteField; value: string }) => ({
      draft: {
        ...context.draft,
        [params.field]: params.field === 'mobile' ? phoneInputOf(params.value) : params.value,
      },
      touched: context.touched.includes(params.field) ? context.touched : [...context.touched, params.field],
    })),
    /** AM §5: a required field left empty says so when focus leaves it, not only once typed in. */
    markTouched: assign(({ context }, params: { field: InviteField }) => ({
      touched: context.touched.includes(params.field) ? context.touched : [...context.touched, params.field],
    })),
    assignRole: assign(({ context }, params: { roleId: number }) => ({
      draft: { ...context.draft, roleId: params.roleId },
    })),
    assignAccess: assign((_, params: { value: boolean }) => ({ grantAccess: params.value })),
    assignInvited: assign((_, params: { answer: InviteUserResponse }) => ({
      invitedUserId: params.answer.UserGuid,
      resultText: inviteTexts.sent,
      succeeded: true,
      changed: true,
    })),
    // SUV §8: otherwise the server's Message; no answer at all, the fixed text.
    assignRefused: assign((_, params: { answer: InviteUserResponse }) => ({
      resultText: params.answer.Message || inviteTexts.failed,
      succeeded: false,
    })),
    assignInviteFailed: assign({ resultText: inviteTexts.failed, succeeded: false }),
    // SUV §8: in the Additional Details flow the fallback carries a trailing full stop.
    assignGrantRefused: assign((_, params: { answer: ErrorNoResult }) => ({
      resultText: params.answer.Message || permissionTexts.failedAfterInvite,
      succeeded: false,
    })),
    assignGrantFailed: assign({ resultText: permissionTexts.failedAfterInvite, succeeded: false }),
    notifyChanged: emit({ type: 'users.changed' as const }),
  },
}).createMachine({
  id: 'inviteUser',
  initial: 'loadingRoles',
  context: ({ input }) => ({
    ...input,
    draft: emptyInviteDraft,
    roles: [],
    touched: [],
    grantAccess: input.accessDefault,
    invitedUserId: '',
    resultText: '',
    succeeded: false,
    changed: false,
  }),
  output: ({ context }) => ({ changed: context.changed }),
  states: {
    loadingRoles: {
      description: 'The roles are loading; the form is shown without them, and what is typed meanwhile is kept',
      on: { ...draftEdits, 'dialog.close': { target: 'closed' } },
      invoke: {
        id: 'loadRoles',
        src: 'loadRoles',
        onDone: {
          target: 'editing',
          actions: { type: 'assignRoles', params: ({ event }) => ({ roles: event.output }) },
        },
        onError: { target: 'rolesFailed' },
      },
    },
    rolesFailed: {
      description: 'The roles could not be loaded; Try again; the names, e-mail and phone can still be typed',
      on: { ...draftEdits, 'roles.retry': { target: 'loadingRoles' }, 'dialog.close': { target: 'closed' } },
    },
    editing: {
      description:
        'The two forms (names, e-mail, phone with country; role); Send, or Next for an admin staff role when the inviter may modify access',
      on: {
        ...draftEdits,
        'role.select': { actions: { type: 'assignRole', params: ({ event }) => ({ roleId: event.roleId }) } },
        'dialog.close': { target: 'closed' },
        'invite.send': { guard: 'canSend', target: 'details' },
      },
    },
    details: {
      description: 'Additional Details: the access toggle and the disclaimer; Send invites',
      initial: 'deciding',
      states: {
        deciding: {
          description: 'Send goes through Additional Details or straight to the invite',
          always: [{ guard: 'needsDetails', target: 'asking' }, { target: '#inviteUser.inviting' }],
        },
        asking: {
          description:
            'The access toggle (default from NewUserAppAccessToggleDefaultON) and the sanitised disclaimer',
          on: {
            'access.toggle': {
              actions: { type: 'assignAccess', params: ({ event }) => ({ value: event.value }) },
            },
            'invite.send': { target: '#inviteUser.inviting' },
            'details.back': { target: '#inviteUser.editing' },
            'dialog.close': { target: '#inviteUser.closed' },
          },
        },
      },
    },
    inviting: {
      description: 'The invite is being sent; nothing can be changed',
      tags: ['busy'],
      invoke: {
        id: 'invite',
        src: 'invite',
        input: ({ context }) => requestOf(context),
        onDone: [
          {
            guard: { type: 'invitedAndGrantWanted', params: ({ event }) => ({ answer: event.output }) },
            target: 'granting',
            actions: [
              { type: 'assignInvited', params: ({ event }) => ({ answer: event.output }) },
              'notifyChanged',
            ],
          },
          {
            guard: { type: 'invited', params: ({ event }) => ({ answer: event.output }) },
            target: 'done',
            actions: [
              { type: 'assignInvited', params: ({ event }) => ({ answer: event.output }) },
              'notifyChanged',
            ],
          },
          {
            target: 'editing',
            actions: { type: 'assignRefused', params: ({ event }) => ({ answer: event.output }) },
          },
        ],
        onError: { target: 'editing', actions: 'assignInviteFailed' },
      },
    },
    granting: {
      description: 'The invited user is being given access to your applications',
      tags: ['busy', 'locked'],
      invoke: {
        id: 'grantAccess',
        src: 'grantAccess',
        input: ({ context }) => ({ userId: context.invitedUserId }),
        onDone: [
          { guard: { type: 'granted', params: ({ event }) => ({ answer: event.output }) }, target: 'done' },
          {
            target: 'done',
            actions: { type: 'assignGrantRefused', params: ({ event }) => ({ answer: event.output }) },
          },
        ],
        onError: { target: 'done', actions: 'assignGrantFailed' },
      },
    },
    done: {
      description: "The form is locked with the outcome ('Invitation sent.'); the button reads Close",
      tags: ['locked'],
      on: { 'dialog.close': { target: 'closed' } },
    },
    closed: { type: 'final', description: 'The modal is gone; the list reloads if someone was invited' },
  },
});

export const statechartLabels = {
  purpose:
    'Invites a user with a role, through Additional Details (application access) for admin staff roles',
  spec: ['SUV §2', 'SUV §3', 'SUV §5', 'SUV §8'],
  actors: {
    loadRoles: {
      does: 'Loads the tenant’s roles',
      done: 'roles loaded',
      failed: 'roles could not be loaded',
    },
    invite: { does: 'Sends the invitation', done: 'the server answered', failed: 'no answer' },
    grantAccess: {
      does: 'Grants the new user access to your applications',
      done: 'the server answered',
      failed: 'no answer',
    },
  },
  guards: {
    canSend: 'both forms are valid and a role is chosen',
    needsDetails: 'the inviter may modify access and the role is an admin staff role',
    invited: 'ErrorNo is 0',
    invitedAndGrantWanted: 'ErrorNo is 0 and access was wanted',
    granted: 'ErrorNo is 0',
  },
  delays: {},
  events: {
    'field.change': 'a field typed in',
    'field.blur': 'focus left a field',
    'role.select': 'a role chosen',
    'access.toggle': 'the access toggle switched',
    'invite.send': 'Send (or Next) pressed',
    'details.back': 'Back pressed in Additional Details',
    'roles.retry': 'Try again pressed',
    'dialog.close': 'Close, Cancel or Escape',
  },
} satisfies MachineLabels<typeof inviteUserMachine>;
