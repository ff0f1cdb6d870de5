import { useEffect, useId, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { inviteUserMachine, type InviteField } from '../../machines/invite-user.machine.ts';
import { inviteErrors, needsAdditionalDetails, phoneCountries } from '../../domain/invite-form.ts';
import type { SystemConfiguration } from '../../schemas/configuration.schema.ts';
import { inviteFieldLimits } from '../../schemas/users.schema.ts';
import { SanitizedHtml } from '../applications/detail/sanitized-html.tsx';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import { Switch } from '../ui/switch.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './users.module.css';

type Settings = SystemConfiguration['UserManagementConfiguration'];

const defaults: Settings = {
  AustralianMobileNumberOnly: true,
  DisplayUserInviteAlert: false,
  UserInviteAlertText: '',
  EditPermissionsDisclaimerText: '',
  NewUserAppAccessToggleDefaultON: false,
};

export interface InviteUserModalProps {
  canModifyAccess: boolean;
  settings: Settings | undefined;
  onChanged: () => void;
  onClose: () => void;
}

/** SUV §2 Invite User (and Additional Details): loaded when New is first pressed, with the phone metadata. */
export default function InviteUserModal({ canModifyAccess, settings = defaults, onChanged, onClose }: InviteUserModalProps) {
  const invite = useActorRef(inviteUserMachine, {
    input: { canModifyAccess, australianOnly: settings.AustralianMobileNumberOnly, accessDefault: settings.NewUserAppAccessToggleDefaultON },
  });
  const draft = useSelector(invite, (snapshot) => snapshot.context.draft);
  const roles = useSelector(invite, (snapshot) => snapshot.context.roles);
  const touched = useSelector(invite, (snapshot) => snapshot.context.touched);
  const busy = useSelector(invite, (snapshot) => snapshot.hasTag('busy'));
  const locked = useSelector(invite, (snapshot) => snapshot.hasTag('locked'));
  const rolesFailed = useSelector(invite, (snapshot) => snapshot.matches('rolesFailed'));
  const asking = useSelector(invite, (snapshot) => snapshot.matches({ details: 'asking' }));
  const canSend = useSelector(invite, (snapshot) => snapshot.can({ type: 'invite.send' }));
  const needsDetails = useSelector(invite, ({ context }) =>
    needsAdditionalDetails(context.roles.find((role) => role.TenantRoleId === context.draft.roleId)?.RoleName, context.canModifyAccess),
  );
  const grantAccess = useSelector(invite, (snapshot) => snapshot.context.grantAccess);
  const resultText = useSelector(invite, (snapshot) => snapshot.context.resultText);
  const succeeded = useSelector(invite, (snapshot) => snapshot.context.succeeded);
  const done = useSelector(invite, (snapshot) => snapshot.status === 'done');
  const countries = useMemo(() => phoneCountries(), []);
  const alertId = useId();

  useEffect(() => {
    const subscription = invite.on('users.changed', onChanged);
    return () => subscription.unsubscribe();
  }, [invite, onChanged]);
  useEffect(() => {
    if (done) onClose();
  }, [done, onClose]);

  const errors = inviteErrors(draft, settings.AustralianMobileNumberOnly);
  const errorOf = (field: InviteField & keyof typeof errors) => (touched.includes(field) ? errors[field] : undefined);
  const change = (field: InviteField) => (value: string) => invite.send({ type: 'field.change', field, value });
  const blur = (field: InviteField) => () => invite.send({ type: 'field.blur', field });
  const close = () => invite.send({ type: 'dialog.close' });
  const disabled = busy || locked;

  if (asking) {
    return (
      <ModalDialog title="Additional Details" isOpen onOpenChange={(open) => !open && close()}>
        <p>
          {draft.firstName} {draft.lastName} ({draft.email})
        </p>
        <Switch isSelected={grantAccess} onChange={(value) => invite.send({ type: 'access.toggle', value })}>
          Can access your applications
        </Switch>
        {settings.EditPermissionsDisclaimerText && <SanitizedHtml html={settings.EditPermissionsDisclaimerText} className={styles.disclaimer} />}
        <div className={styles.buttons}>
          <Button onPress={() => invite.send({ type: 'details.back' })}>Back</Button>
          <Button variant="primary" onPress={() => invite.send({ type: 'invite.send' })}>
            Send
          </Button>
        </div>
      </ModalDialog>
    );
  }

  return (
    <ModalDialog title="Invite User" isOpen isKeyboardDismissDisabled={busy} onOpenChange={(open) => !open && !busy && close()}>
      {settings.DisplayUserInviteAlert && settings.UserInviteAlertText && (
        <p id={alertId} className={styles.inviteAlert}>
          {settings.UserInviteAlertText}
        </p>
      )}
      <fieldset className={styles.formGroup} disabled={disabled}>
        <legend>Personal details</legend>
        <TextField label="First Name" isRequired maxLength={inviteFieldLimits.name} isDisabled={disabled} value={draft.firstName} onChange={change('firstName')} onBlur={blur('firstName')} errorMessage={errorOf('firstName')} />
        <TextField label="Last Name" isRequired maxLength={inviteFieldLimits.name} isDisabled={disabled} value={draft.lastName} onChange={change('lastName')} onBlur={blur('lastName')} errorMessage={errorOf('lastName')} />
        <TextField label="Email" type="email" isRequired maxLength={inviteFieldLimits.email} isDisabled={disabled} value={draft.email} onChange={change('email')} onBlur={blur('email')} errorMessage={errorOf('email')} />
        <div className={styles.phoneRow}>
          {!settings.AustralianMobileNumberOnly && (
            <label className={styles.selectField}>
              <span>Country</span>
              <select value={draft.country} disabled={disabled} onChange={(event) => change('country')(event.target.value)}>
                {countries.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <TextField
            label="Mobile Number"
            inputMode="tel"
            isRequired
            isDisabled={disabled}
            value={draft.mobile}
            onChange={change('mobile')}
            onBlur={blur('mobile')}
            errorMessage={errorOf('mobile')}
            description={settings.AustralianMobileNumberOnly || draft.country === 'au' ? 'An Australian mobile: 04 and 8 more digits' : undefined}
          />
        </div>
      </fieldset>
      <fieldset className={styles.formGroup} disabled={disabled || rolesFailed}>
        <legend>Role</legend>
        <label className={styles.selectField}>
          <span>Role *</span>
          <select
            required
            value={draft.roleId === undefined ? '' : String(draft.roleId)}
            disabled={disabled}
            onChange={(event) => invite.send({ type: 'role.select', roleId: Number(event.target.value) })}
          >
            <option value="" disabled>
              Choose a role
            </option>
            {roles.map((role) => (
              <option key={role.TenantRoleId} value={role.TenantRoleId}>
                {role.RoleName}
              </option>
            ))}
          </select>
        </label>
        {rolesFailed && (
          <p role="alert" className={styles.failure}>
            The roles could not be loaded. <Button onPress={() => invite.send({ type: 'roles.retry' })}>Try again</Button>
          </p>
        )}
      </fieldset>
      <div role="status">{succeeded && <p className={styles.success}>{resultText}</p>}</div>
      <div role="alert">{!succeeded && resultText && <p className={styles.failure}>{resultText}</p>}</div>
      <div className={styles.buttons}>
        <Button onPress={close} isDisabled={busy}>
          {locked ? 'Close' : 'Cancel'}
        </Button>
        {!locked && (
          <Button variant="primary" isDisabled={!canSend || busy} isPending={busy} onPress={() => invite.send({ type: 'invite.send' })}>
            {needsDetails ? 'Next' : 'Send'}
          </Button>
        )}
      </div>
    </ModalDialog>
  );
}
