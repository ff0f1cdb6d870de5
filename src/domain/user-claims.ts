/** SUV §6 user-management claims, as the page checks them (the server checks the same). */
export const userClaimNames = {
  access: 'usermanagement.access',
  invite: 'usermanagement.users.invite',
  export: 'usermanagement.users.exportusers',
  editAccess: 'usermanagement.permissions.editapplicationaccess',
  unlock: 'usermanagement.users.unlock',
  enableDisable: 'usermanagement.users.enabledisable',
} as const;
