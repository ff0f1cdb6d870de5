import styles from './pages.module.css';

/** Stand-ins for the screens later issues build; each keeps its route, heading and title. */
function Placeholder({ heading }: { heading: string }) {
  return (
    <section className={styles.page} aria-labelledby="page-heading">
      <h1 id="page-heading">{heading}</h1>
      <div className={styles.card}>
        <p className={styles.muted}>Coming soon.</p>
      </div>
    </section>
  );
}

export function ReportsPage() {
  return <Placeholder heading="Reports" />;
const pageOf = (params: { pageNo?: string; rowsPerPage?: string }) =>
  [params.pageNo && `Page ${params.pageNo}`, params.rowsPerPage && `${params.rowsPerPage} rows per page`]
    .filter(Boolean)
    .join(', ') || undefined;

export function UsersPage() {
  return <Placeholder heading="Users" detail={pageOf(useParams())} />;
}

export function VerificationsPage() {
  return <Placeholder heading="Verifications" />;
}

export function VerificationDetailsPage() {
  const { id = '' } = useParams();
  return <Placeholder heading={`Verification ${id}`} />;
}
