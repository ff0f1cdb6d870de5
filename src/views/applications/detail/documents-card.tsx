import { useCallback } from 'react';
import { useDropzone } from 'react-dropzone';
import { useSelector } from '@xstate/react';
import { formatDetailDate, noDocumentsText, type DetailCards } from '../../../domain/application-detail.ts';
import type { UploadEntry } from '../../../machines/application-detail.machine.ts';
import type { ApplicationDetail } from '../../../schemas/application-detail.schema.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from './detail-card.tsx';
import { useDetailSelector, useDetailSend } from './detail-hooks.ts';
import styles from './application-detail.module.css';

/**
 * AM §2 Documents: the list (document.view), download one or all as a zip (document.download),
 * upload by drop or picker (document.upload). Every file goes to its own upload workflow, which
 * refuses a type that is not accepted before sending ('Invalid file type').
 */
export function DocumentsCard({ detail, cards }: { detail: ApplicationDetail; cards: DetailCards }) {
  const send = useDetailSend();
  const downloading = useDetailSelector((snapshot) => snapshot.context.downloading);
  const downloadFailed = useDetailSelector((snapshot) => snapshot.context.downloadFailed);
  const documents = detail.Documents;
  return (
    <Card
      title="Documents"
      actions={
        cards.downloadDocuments && documents.length > 0 ? (
          <Button onPress={() => send({ type: 'documents.downloadAll' })} isDisabled={downloading}>
            Download all
          </Button>
        ) : undefined
      }
    >
      {documents.length === 0 ? (
        <p className={styles.muted}>{noDocumentsText}</p>
      ) : (
        <ul className={styles.list} aria-label="Documents">
          {documents.map((document) => (
            <li key={document.LabDocsId} className={styles.listRow}>
              <span className={styles.fileName}>{document.OriginalFileName}</span>
              <span className={styles.muted}>{document.ArtifactFriendlyName}</span>
              <span className={styles.muted}>{formatDetailDate(document.UploadedTimestamp)}</span>
              {cards.downloadDocuments && (
                <Button
                  variant="quiet"
                  isDisabled={downloading}
                  aria-label={`Download ${document.OriginalFileName}`}
                  onPress={() =>
                    send({ type: 'document.download', labDocsId: document.LabDocsId, fileName: document.OriginalFileName })
                  }
                >
                  Download
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {downloadFailed && (
        <p className={styles.error} role="alert">
          The download failed. Please try again.
        </p>
      )}
      {cards.uploadIn === 'documents' && <DocumentDropzone />}
    </Card>
  );
}

/** Drop or choose files to upload (document.upload), with each file's progress and result. */
export function DocumentDropzone() {
  const send = useDetailSend();
  const uploads = useDetailSelector((snapshot) => snapshot.context.uploads);
  const onDrop = useCallback((files: File[]) => send({ type: 'documents.add', files }), [send]);
  // Every file reaches the upload workflow (no `accept` filter here), so a refused one is named.
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({ onDrop, noClick: true, noKeyboard: true });
  return (
    <div className={styles.upload}>
      <div {...getRootProps({ className: styles.dropzone, 'data-active': isDragActive || undefined })}>
        <input {...getInputProps({ 'aria-label': 'Upload documents' })} />
        <p>{isDragActive ? 'Drop the files to upload them' : 'Drag files here to upload them, or'}</p>
        <Button onPress={open}>Choose files</Button>
      </div>
      <ul className={styles.list} aria-label="Uploads" aria-live="polite">
        {uploads.map((upload) => (
          <UploadRow key={upload.id} upload={upload} />
        ))}
      </ul>
    </div>
  );
}

function UploadRow({ upload }: { upload: UploadEntry }) {
  const send = useDetailSend();
  const state = useSelector(upload.ref, (snapshot) =>
    snapshot.matches('refused') || snapshot.matches('failed') || snapshot.matches('interrupted')
      ? 'failed'
      : snapshot.matches('done')
        ? 'done'
        : 'uploading',
  );
  const message = useSelector(upload.ref, (snapshot) => snapshot.context.message);
  const canRetry = useSelector(upload.ref, (snapshot) => snapshot.can({ type: 'upload.retry' }));
  const percent = useSelector(upload.ref, (snapshot) =>
    snapshot.context.total > 0 ? Math.round((snapshot.context.sent / snapshot.context.total) * 100) : undefined,
  );
  const text =
    state === 'uploading'
      ? `Uploading…${percent === undefined ? '' : ` ${percent}%`}`
      : state === 'done'
        ? 'Uploaded'
        : message;
  return (
    <li className={styles.listRow} data-state={state}>
      <span className={styles.fileName}>{upload.fileName}</span>
      {state === 'uploading' && (
        <progress className={styles.uploadProgress} max={100} value={percent} aria-label={`Uploading ${upload.fileName}`} />
      )}
      <span className={state === 'failed' ? styles.error : styles.muted}>{text}</span>
      {canRetry && (
        <Button variant="quiet" onPress={() => upload.ref.send({ type: 'upload.retry' })}>
          Retry
        </Button>
      )}
      {state !== 'uploading' && (
        <Button
          variant="quiet"
          aria-label={`Dismiss ${upload.fileName}`}
          onPress={() => send({ type: 'upload.dismiss', id: upload.id })}
        >
          Dismiss
        </Button>
      )}
    </li>
  );
}
