import { Link } from 'react-router-dom';
import { sessionTexts } from '../../domain/session.ts';
import { TenantBrandingContext } from '../../machines/tenant-branding.machine.ts';
import { platformName, useBranding } from './branding.ts';
import { useDocumentTitle } from './use-document-title.ts';
import styles from './unavailable-notice.module.css';

/** SUV §2 /timeout: where an expired session lands, under the tenant's brand (it is public). */
export function TimeoutPage() {
  return (
    <TenantBrandingContext.Provider>
      <TimeoutNotice />
    </TenantBrandingContext.Provider>
  );
}

function TimeoutNotice() {
  const tenant = TenantBrandingContext.useSelector((snapshot) => snapshot.context.tenant);
  const loading = TenantBrandingContext.useSelector((snapshot) => snapshot.hasTag('busy'));
  useBranding(tenant);
  // While loading no title is set, so the platform's name does not flash before the tenant's.
  useDocumentTitle(loading ? undefined : tenant?.DisplayName || platformName);
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <h1>{sessionTexts.expired}</h1>
        <p>
          <Link to="/">Sign in again</Link>
        </p>
      </div>
    </main>
  );
}
