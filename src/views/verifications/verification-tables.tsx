import { Link, useNavigate } from 'react-router-dom';
import { VerificationListContext } from '../../machines/verification-list.machine.ts';
import { isPendingStatus, listDate, statusText, typeText } from '../../domain/verifications.ts';
import type { CompanyVerificationRow, IndividualVerificationRow } from '../../schemas/verifications.schema.ts';
import { Button } from '../ui/button.tsx';
import styles from './verifications.module.css';

const detailsPath = (id: string) => `/verifications/details/${encodeURIComponent(id)}`;

/** SUV §2 REPORT: the download, disabled while the record is Pending. */
function ReportCell({ id, status, link }: { id: string; status: string; link: string }) {
  const list = VerificationListContext.useActorRef();
  const disabled = isPendingStatus(status) || link === '';
  return (
    <Button variant="quiet" aria-label={`Download report ${id}`} isDisabled={disabled} onPress={() => list.send({ type: 'report.download', reportLink: link })}>
      Download
    </Button>
  );
}

/** SUV §2 REF NO. / CODE: the editable tag (placeholder 'Ref. no.'), opening the Add Reference Number modal. */
function RefCodeCell({ id, code }: { id: string; code: string }) {
  const list = VerificationListContext.useActorRef();
  return (
    <Button variant="quiet" className={code ? styles.tag : styles.tagEmpty} aria-label={code ? `${code}: edit the reference number for ${id}` : `Ref. no.: add a reference number for ${id}`} onPress={() => list.send({ type: 'refCode.open', id, current: code })}>
      {code || 'Ref. no.'}
    </Button>
  );
}

function StatusBadge({ status }: { status: string }) {
  const text = statusText(status);
  return <span className={`${styles.status} ${styles[`status${text}`] ?? ''}`}>{text}</span>;
}

/** A row opens its details page on click; its first cell is the link a keyboard or screen reader uses. */
function useRowClick() {
  const navigate = useNavigate();
  return (id: string) => (event: React.MouseEvent<HTMLTableRowElement>) => {
    // Clicks on the row's own buttons and links do their own thing.
    if (event.target instanceof Element && event.target.closest('button, a')) return;
    void navigate(detailsPath(id));
  };
}

export function CompanyTable({ rows }: { rows: readonly CompanyVerificationRow[] }) {
  const open = useRowClick();
  return (
    <table className={styles.table} aria-label="Company verifications">
      <thead>
        <tr>
          <th scope="col">ID</th>
          <th scope="col">COMPANY</th>
          <th scope="col">DATE</th>
          <th scope="col">REQUESTER</th>
          <th scope="col">STATUS</th>
          <th scope="col">REPORT</th>
          <th scope="col">REF NO. / CODE</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} onClick={open(row.id)} className={styles.row}>
            <td>
              <Link to={detailsPath(row.id)}>{row.id}</Link>
            </td>
            <td>
              <div>{row.company.name}</div>
              <div className={styles.muted}>{row.company.companyNumber.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3')}</div>
            </td>
            <td>{listDate(row.date)}</td>
            <td>{row.requester_name}</td>
            <td>
              <StatusBadge status={row.status} />
            </td>
            <td>
              <ReportCell id={row.id} status={row.status} link={row.report_link} />
            </td>
            <td>
              <RefCodeCell id={row.id} code={row.ref_code} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function IndividualTable({ rows }: { rows: readonly IndividualVerificationRow[] }) {
  const open = useRowClick();
  return (
    <table className={styles.table} aria-label="Individual verifications">
      <thead>
        <tr>
          <th scope="col">NAME</th>
          <th scope="col">DATE</th>
          <th scope="col">REQUESTER</th>
          <th scope="col">TYPE</th>
          <th scope="col">STATUS</th>
          <th scope="col">REPORT</th>
          <th scope="col">REF NO. / CODE</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} onClick={open(row.id)} className={styles.row}>
            <td>
              <div>{row.full_name}</div>
              <Link to={detailsPath(row.id)} className={styles.muted}>
                {row.id}
              </Link>
            </td>
            <td>{listDate(row.date)}</td>
            <td>{row.requester_name}</td>
            <td>{typeText(row.type)}</td>
            <td>
              <StatusBadge status={row.status} />
            </td>
            <td>
              <ReportCell id={row.id} status={row.status} link={row.report_link} />
            </td>
            <td>
              <RefCodeCell id={row.id} code={row.ref_code} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
