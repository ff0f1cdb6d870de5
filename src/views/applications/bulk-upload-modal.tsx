import { useCallback, useEffect } from 'react';
import { useDropzone } from 'react-dropzone';
import { useActorRef, useSelector } from '@xstate/react';
import { Button as AriaButton, ProgressBar } from 'react-aria-components';
import { bulkUploadTexts } from '../../domain/bulk-upload.ts';
import { bulkUploadMachine } from '../../machines/bulk-upload.machine.ts';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import styles from './bulk-upload-modal.module.css';

type BulkUploadRef = ReturnType<typeof useActorRef<typeof bulkUploadMachine>>;

/**
 * AM §2 Bulk upload modal (lazy: react-dropzone and this modal load when it is opened). The
 * workflow is the bulk-upload machine; this view renders its state and sends what the person does.
 */
export default function BulkUploadModal({
  onClose,
  onUploaded,
}: {
  onClose: () => void;
  onUploaded: () => void;
}) {
  const upload = useActorRef(bulkUploadMachine);
  const closed = useSelector(upload, (snapshot) => snapshot.status === 'done');
  const busy = useSelector(upload, (snapshot) => snapshot.hasTag('busy'));
  useEffect(() => {
    const subscription = upload.on('applications.uploaded', onUploaded);
    return () => subscription.unsubscribe();
  }, [upload, onUploaded]);
  useEffect(() => {
    if (closed) onClose();
  }, [closed, onClose]);
  const close = () => upload.send({ type: 'dialog.close' });

  return (
    <ModalDialog
      title={bulkUploadTexts.title}
      isOpen
      isKeyboardDismissDisabled={busy}
      onOpenChange={(isOpen) => {
        if (!isOpen) close();
      }}
    >
      <Body upload={upload} />
      <div className={styles.buttons}>
        <Button onPress={close} isDisabled={busy}>
          Close
        </Button>
      </div>
    </ModalDialog>
  );
}

function Body({ upload }: { upload: BulkUploadRef }) {
  const state = useSelector(upload, (snapshot) => snapshot.value);
  const percent = useSelector(upload, (snapshot) => snapshot.context.percent);
  const fileName = useSelector(upload, (snapshot) => snapshot.context.fileName);
  const message = useSelector(upload, (snapshot) => snapshot.context.message);
  const downloadFailed = useSelector(upload, (snapshot) => snapshot.context.downloadFailed);
  const again = (
    <Button variant="primary" onPress={() => upload.send({ type: 'upload.again' })}>
      Upload another file
    </Button>
  );
  const downloadError = downloadFailed ? (
    <p role="alert" className={styles.error}>
      The download failed. Please try again.
    </p>
  ) : null;

  if (state === 'idle' || state === 'wrongType' || state === 'checkingType') {
    return (
      <>
        <Dropzone upload={upload} />
        {state === 'wrongType' && (
          <p role="alert" className={styles.error}>
            {fileName}: {bulkUploadTexts.wrongType}
          </p>
        )}
        <p className={styles.text}>
          <AriaButton className={styles.link} onPress={() => upload.send({ type: 'template.download' })}>
            Download the bulk upload template
          </AriaButton>
        </p>
        {downloadError}
      </>
    );
  }
  return (
    <>
      <ProgressBar className={styles.progress} value={percent} aria-label={`Uploading ${fileName}`}>
        {({ valueText }) => (
          <>
            <span>
              {fileName} — {valueText}
            </span>
            <div className={styles.track}>
              <div className={styles.fill} style={{ width: `${percent}%` }} />
            </div>
          </>
        )}
      </ProgressBar>
      {state === 'succeeded' && (
        <div role="status">
          <p className={`${styles.text} ${styles.success}`}>{bulkUploadTexts.success[0]}</p>
          <p className={styles.text}>{bulkUploadTexts.success[1]}</p>
        </div>
      )}
      {state === 'invalidData' && (
        <div role="alert">
          <p className={`${styles.text} ${styles.error}`}>{bulkUploadTexts.invalidData[0]}</p>
          <p className={styles.text}>{bulkUploadTexts.invalidData[1]}</p>
          <p className={styles.text}>
            <AriaButton className={styles.link} onPress={() => upload.send({ type: 'errorFile.download' })}>
              {bulkUploadTexts.invalidDataLink}
            </AriaButton>
          </p>
          <p className={styles.text}>{bulkUploadTexts.invalidDataAfter}</p>
          {message && <p className={styles.text}>{message}</p>}
        </div>
      )}
      {state === 'otherError' && (
        <div role="alert">
          {/* The specific reason (a duplicate file, too many rows) first, then the spec's general texts (issue 32). */}
          {message && <p className={`${styles.text} ${styles.error}`}>{message}</p>}
          <p className={message ? styles.text : `${styles.text} ${styles.error}`}>{bulkUploadTexts.otherError[0]}</p>
          <p className={styles.text}>{bulkUploadTexts.otherError[1]}</p>
        </div>
      )}
      {downloadError}
      {state !== 'uploading' && <div className={styles.buttons}>{again}</div>}
    </>
  );
}

function Dropzone({ upload }: { upload: BulkUploadRef }) {
  const onDrop = useCallback(
    (files: File[]) => {
      const [file] = files;
      if (file) upload.send({ type: 'file.drop', file });
    },
    [upload],
  );
  // No `accept` filter: every file reaches the machine, which refuses a wrong type by name (AM §5).
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop,
    multiple: false,
    noClick: true,
    noKeyboard: true,
  });
  return (
    <div {...getRootProps({ className: styles.dropzone, 'data-active': isDragActive || undefined })}>
      <input {...getInputProps({ 'aria-label': 'Upload applications file' })} />
      <p>{isDragActive ? 'Drop the file to upload it' : 'Drag an .xlsx or .xls file here, or'}</p>
      <Button variant="primary" onPress={open}>
        Choose file
      </Button>
    </div>
  );
}
