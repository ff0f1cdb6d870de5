import type { ReactNode } from 'react';
import styles from './unavailable-notice.module.css';

export interface SupportContacts {
  SupportEmail: string;
  SupportPhone: string;
}

export interface UnavailableNoticeProps {
  /** 'tenant': the address serves no tenant (SUV §2); 'authentication': signing in failed (AM §1). */
  reason: 'tenant' | 'authentication';
  support: SupportContacts | undefined;
  children?: ReactNode;
}

/** The portal-unavailable page: retry in 5-10 minutes, with the support e-mail and phone. */
export function UnavailableNotice({ reason, support, children }: UnavailableNoticeProps) {
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <h1>LAB Portal unavailable</h1>
        <p>
          {reason === 'tenant'
            ? 'Please check that the address is correct, or try again in 5-10 minutes.'
            : 'The portal is unavailable at the moment. Please try again in 5-10 minutes.'}
        </p>
        {support && (support.SupportEmail || support.SupportPhone) && (
          <>
            <p>If the problem persists, please contact support:</p>
            <ul className={styles.contacts}>
              {support.SupportEmail && (
                <li>
                  E-mail: <a href={`mailto:${support.SupportEmail}`}>{support.SupportEmail}</a>
                </li>
              )}
              {support.SupportPhone && (
                <li>
                  Phone:{' '}
                  <a href={`tel:${support.SupportPhone.replace(/\s+/g, '')}`}>{support.SupportPhone}</a>
                </li>
              )}
            </ul>
          </>
        )}
        {children}
      </div>
    </main>
  );
}
