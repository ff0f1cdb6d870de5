import { interactionPolicy } from 'oidc-provider';

/** The reason the login prompt gives when the session's account can no longer sign in. */
export const accountUnavailableReason = 'account_unavailable';

/**
 * oidc-provider's default prompts, with one more login check (issue 27 point 17): a session whose
 * account findAccount no longer returns (locked or deactivated after the password step, before the
 * authorisation resumed) asks for the login again. Without it the provider loaded no grant for the
 * missing account, the consent check read that grant, and the sign-in answered 500 "oops! something
 * went wrong".
 */
export function portalInteractionPolicy() {
  const policy = interactionPolicy.base();
  const login = policy.get('login');
  if (!login) throw new Error('oidc-provider has no login prompt');
  login.checks.add(
    new interactionPolicy.Check(
      accountUnavailableReason,
      'the account can no longer sign in',
      (ctx) => (ctx.oidc.session?.accountId !== undefined && ctx.oidc.account === undefined
        ? interactionPolicy.Check.REQUEST_PROMPT
        : interactionPolicy.Check.NO_NEED_TO_PROMPT),
    ),
  );
  return policy;
}
