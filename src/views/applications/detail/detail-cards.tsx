import {
  approverDisplay,
  detailRows,
  detailStatusStyle,
  exceptionName,
  formatApprovalDate,
  formatDetailDate,
  isRequirementMet,
  progressPercent,
  taxDisplay,
  vpnUnavailableText,
  type DetailCards,
  type DetailRow,
} from '../../../domain/application-detail.ts';
import { requirementIndividualName } from '../../../domain/identity-verification.ts';
import { moreLabel } from '../../../domain/list-format.ts';
import type { ApplicationDetail } from '../../../schemas/application-detail.schema.ts';
import { Button } from '../../ui/button.tsx';
import { Tooltip } from '../../ui/tooltip.tsx';
import { Card, Field } from './detail-card.tsx';
import { DocumentDropzone } from './documents-card.tsx';
import { ApproverActions, DetailRowValue, EditableValue } from './editors/editor-controls.tsx';
import { useDetailSelector, useDetailSend } from './detail-hooks.ts';
import { SanitizedHtml } from './sanitized-html.tsx';
import { RequirementVerificationMenu } from './verification/requirement-verification-menu.tsx';
import focus from '../../ui/focus.module.css';
import styles from './application-detail.module.css';

type DetailProps = { detail: ApplicationDetail };

/** AM §4: Documents pending, Complete and Locked get their style; any other status is plain text. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={styles.status} data-style={detailStatusStyle(status)}>
      {status}
    </span>
  );
}

/** AM §2 Header: account name, application ID, primary applicant name, phone, email. */
export function HeaderCard({ detail }: DetailProps) {
  return (
    <Card title={detail.AccountName || detail.PrimaryApplicantName} actions={<StatusBadge status={detail.Status} />}>
      <dl className={styles.fields}>
        <Field label="Application ID">{detail.ApplicationID}</Field>
        <Field label="Primary applicant">{detail.PrimaryApplicantName}</Field>
        <Field label="Phone">{detail.PrimaryApplicantPhone}</Field>
        <Field label="Email">
          <EditableValue editor="email" detail={detail}>
            {detail.Email ? <a href={`mailto:${detail.Email}`}>{detail.Email}</a> : ''}
          </EditableValue>
        </Field>
      </dl>
    </Card>
  );
}

/** AM §2 Progress: a ring, only for incomplete applications. */
export function ProgressCard({ detail }: DetailProps) {
  const percent = progressPercent(detail.CompletionPercentage);
  const radius = 34;
  const circumference = 2 * Math.PI * radius;
  return (
    <Card title="Progress">
      <div className={styles.progress}>
        <svg
          className={styles.ring}
          viewBox="0 0 80 80"
          role="progressbar"
          aria-label="Application progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}% complete`}
        >
          <circle className={styles.ringTrack} cx="40" cy="40" r={radius} />
          <circle
            className={styles.ringValue}
            cx="40"
            cy="40"
            r={radius}
            strokeDasharray={circumference}
            strokeDashoffset={circumference * (1 - percent / 100)}
          />
          <text x="40" y="45" textAnchor="middle" className={styles.ringText}>
            {percent}%
          </text>
        </svg>
        <p className={styles.muted}>{percent}% complete</p>
        {detail.LastSection && <p className={styles.muted}>Last section: {detail.LastSection}</p>}
      </div>
    </Card>
  );
}

/** AM §2/§8 Exceptions (exceptions.view): names as the spec maps them, unknown ones humanised. */
export function ExceptionsCard({ detail }: DetailProps) {
  const exceptions = detail.BusinessRuleViolations;
  return (
    <Card title="Exceptions">
      {exceptions.length === 0 ? (
        <p className={styles.muted}>No exceptions</p>
      ) : (
        <ul className={styles.list}>
          {exceptions.map((exception, index) => (
            <li key={`${exception.ViolationName}-${index}`} className={styles.listRow}>
              <span className={styles.exception}>{exceptionName(exception.ViolationName)}</span>
              <span className={styles.muted}>{formatDetailDate(exception.ViolationDateTimeStamp)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function RowValue({ row }: { row: DetailRow }) {
  if (row.kind === 'text') {
    if (row.name === 'Status') return <StatusBadge status={row.text} />;
    // An empty row (no assignee, no label) shows a dash, so 'Edit' beside it is not the value (issue 32).
    if (row.text.trim() === '')
      return (
        <>
          <span aria-hidden="true">—</span>
          <span className={focus.visuallyHidden}>None</span>
        </>
      );
    return <>{row.text}</>;
  }
  return (
    <span className={styles.products}>
      {row.shown.join(', ')}
      {row.rest.length > 0 && (
        <Tooltip content={row.rest.join(', ')}>
          <Button variant="quiet" className={styles.more} aria-label={`${moreLabel(row.rest.length)}: ${row.rest.join(', ')}`}>
            {moreLabel(row.rest.length)}
          </Button>
        </Tooltip>
      )}
    </span>
  );
}

/** AM §2/§3 Details: the rows every application has, and the optional rows configured on /admin. */
export function DetailsCard({ detail }: DetailProps) {
  const rowNames = useDetailSelector((snapshot) => snapshot.context.configuration.rowNames);
  return (
    <Card title="Details">
      <dl className={styles.fields}>
        {detailRows(detail, rowNames).map((row) => (
          <Field key={row.name} label={row.label}>
            <DetailRowValue rowName={row.name} detail={detail}>
              <RowValue row={row} />
            </DetailRowValue>
          </Field>
        ))}
      </dl>
    </Card>
  );
}

/** AM §4 Approval Status: Approved success, Declined failed, otherwise pending; 'Locked' for an MFA-locked approver. */
export function ApprovalCard({ detail }: DetailProps) {
  const approvals = detail.ApplicantApprovals;
  return (
    <Card title="Approval Status">
      {approvals.length === 0 ? (
        <p className={styles.muted}>No approvers</p>
      ) : (
        <ul className={styles.list}>
          {approvals.map((approval) => {
            const shown = approverDisplay(approval);
            return (
              <li key={approval.IndividualId} className={styles.listRow}>
                <span>{approval.ApplicantName}</span>
                <span className={styles.approval} data-style={shown.style}>
                  {shown.text}
                </span>
                <span className={styles.muted}>{formatApprovalDate(approval.UpdateDate)}</span>
                <ApproverActions detail={detail} approval={approval} />
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/**
 * AM §2: Identification requirements, or the Electronic Verification summary when ShowEVSummaryResult
 * is on. ActionRequired is server HTML, sanitised.
 */
export function IdentificationCard({ detail, kind }: DetailProps & { kind: 'requirements' | 'evSummary' }) {
  const requirements = detail.Requirements;
  return (
    <Card title={kind === 'evSummary' ? 'Electronic Verification summary' : 'Identification requirements'}>
      {requirements.length === 0 ? (
        <p className={styles.muted}>No requirements</p>
      ) : (
        <ul className={styles.list}>
          {requirements.map((requirement) => {
            const met = isRequirementMet(requirement.Result);
            return (
              <li key={requirement.EntityGuid} className={styles.requirement}>
                <div className={styles.listRow}>
                  <span>{requirement.Name}</span>
                  <span className={styles.approval} data-style={met ? 'success' : 'pending'}>
                    {requirement.ResultText}
                  </span>
                  <RequirementVerificationMenu
                    applicationGuid={detail.ApplicationGuid}
                    applicationStatus={detail.Status}
                    requirement={requirement}
                    individualName={requirementIndividualName(requirement, detail.ApplicantApprovals)}
                  />
                </div>
                {kind === 'requirements' && requirement.ActionRequired && (
                  <SanitizedHtml className={styles.html} html={requirement.ActionRequired} />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/**
 * AM §2 Outstanding documents (the Additional Documents card). It asks for documents, so it offers
 * their upload when the Documents card, which otherwise holds it, is hidden (issue 32).
 */
export function OutstandingDocumentsCard({ detail, cards }: DetailProps & { cards: DetailCards }) {
  const outstanding = detail.OutstandingDocuments;
  return (
    <Card title="Outstanding documents">
      {outstanding.length === 0 ? (
        <p className={styles.muted}>No outstanding documents</p>
      ) : (
        <ul className={styles.list}>
          {outstanding.map((document, index) => (
            <li key={`${document.Name}-${index}`} className={styles.requirement}>
              <strong>{document.Name}</strong>
              {document.ActionRequired && <SanitizedHtml className={styles.html} html={document.ActionRequired} />}
            </li>
          ))}
        </ul>
      )}
      {cards.uploadIn === 'outstanding' && <DocumentDropzone />}
    </Card>
  );
}

/** AM §6 Tax Information Details: Provided / Not Provided; the TFN with viewsensitive, blurred until revealed. */
export function TaxCard({ detail }: DetailProps) {
  const send = useDetailSend();
  const claims = useDetailSelector((snapshot) => snapshot.context.claims);
  const revealed = useDetailSelector((snapshot) => snapshot.context.revealedTfns);
  const taxes = detail.ApplicationTaxInformations;
  return (
    <Card title="Tax Information Details">
      {taxes.length === 0 ? (
        <p className={styles.muted}>No tax information</p>
      ) : (
        <ul className={styles.list}>
          {taxes.map((tax, index) => {
            const shown = taxDisplay(tax, claims);
            const isRevealed = revealed.includes(index);
            return (
              <li key={`${tax.ApplicantName}-${index}`} className={styles.listRow}>
                <span>{shown.applicantName}</span>
                <span>{shown.summary}</span>
                {shown.tfn !== undefined && (
                  <span className={styles.tfn}>
                    {isRevealed ? (
                      <span>{shown.tfn}</span>
                    ) : (
                      <>
                        <span className={styles.blurred} aria-hidden="true" data-testid="tfn-blurred">
                          {shown.tfn}
                        </span>
                        <span className={focus.visuallyHidden}>TFN hidden</span>
                      </>
                    )}
                    <Button
                      variant="quiet"
                      aria-pressed={isRevealed}
                      aria-label={`${isRevealed ? 'Hide' : 'Reveal'} TFN of ${shown.applicantName}`}
                      onPress={() => send({ type: 'tfn.toggle', index })}
                    >
                      {isRevealed ? 'Hide' : 'Reveal'}
                    </Button>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** AM §2/§8 VPN Summary (vpnsummary.view), or the spec's text when the results are not available. */
export function VpnCard() {
  const state = useDetailSelector((snapshot) => snapshot.context.vpn);
  const ips = useDetailSelector((snapshot) => snapshot.context.ips);
  return (
    <Card title="VPN Summary">
      {state === 'unavailable' ? (
        <p className={styles.muted}>{vpnUnavailableText}</p>
      ) : state === 'loading' && ips.length === 0 ? (
        <p className={styles.muted}>Loading…</p>
      ) : ips.length === 0 ? (
        <p className={styles.muted}>No addresses recorded</p>
      ) : (
        // Focusable, so that a keyboard can scroll the table when it is wider than the card (axe scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reached by keyboard to scroll it (WCAG 2.1.1)
        <div className={styles.tableScroll} role="region" aria-label="VPN Summary table" tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Applicant</th>
                <th scope="col">IP</th>
                <th scope="col">ISP</th>
                <th scope="col">VPN</th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody>
              {ips.map((ip, index) => (
                <tr key={`${ip.Ip}-${index}`}>
                  <td>{ip.ApplicantName}</td>
                  <td>{ip.Ip}</td>
                  <td>{ip.IspName}</td>
                  <td>
                    <span className={styles.approval} data-style={ip.IsVpn ? 'failed' : 'success'}>
                      {ip.IsVpn ? 'Yes' : 'No'}
                    </span>
                  </td>
                  <td>{formatDetailDate(ip.EventDateTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
