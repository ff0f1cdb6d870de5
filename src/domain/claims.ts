/** Every permission claim named in the two spec documents (AM §6, SUV §6). */
export const applicationManagerClaims = [
  'app.create', 'app.createonbehalf', 'app.cancel', 'app.depersonalise', 'app.assign', 'app.export',
  'app.emailresumelink', 'app.resendcompletionemail', 'label.add', 'label.assign', 'app.view', 'app.edit',
  'app.editcompleted', 'view.myapps', 'view.allapps.instance', 'view.allapps.location',
  'view.allapps.restrictiongroup', 'comment.add', 'comments.view', 'app.triggerapi', 'app.bulkupload',
  'document.upload', 'document.view', 'document.download', 'app.changeprimaryemail', 'app.changesigningmode',
  'app.unlockapplication', 'app.changeowner', 'app.generatefinalreport', 'app.generatedraftreport',
  'app.labformmfaunlock', 'app.reverifyindividual', 'app.individualverification',
  'app.individualsanctionscheck', 'exceptions.view', 'vpnsummary.view', 'app.taxdetails.viewsummary',
  'app.taxdetails.viewsensitive', 'admin', 'user.formlogin', 'reports.login', 'labid.login',
] as const;

export const shellClaims = [
  'usermanagement.access', 'usermanagement.users.invite', 'usermanagement.users.exportusers',
  'usermanagement.permissions.editapplicationaccess', 'usermanagement.users.unlock',
  'usermanagement.users.enabledisable', 'entityverification.access', 'entityverification.company',
  'entityverification.individual', 'entityverification.smsfLookup', 'entityverification.abnLookup',
  'entityverification.emailAge', 'entityverification.ipAddress', 'portal.settings',
] as const;

export const allClaims: readonly string[] = [...applicationManagerClaims, ...shellClaims];

export const myAppsClaim = 'view.myapps';
export const allAppsClaims = ['view.allapps.instance', 'view.allapps.location', 'view.allapps.restrictiongroup'];
